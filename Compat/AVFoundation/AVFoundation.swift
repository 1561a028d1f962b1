// `import AVFoundation` re-exports CoreMedia, as Apple code expects (API.md §0.3).
@_exported import CoreMedia
// Apple's AVFoundation re-exports Foundation (`URL`, `NSError`, `Notification`).
@_exported import Foundation
// On Apple platforms `@Observable` reaches code that imports only Foundation,
// Speech and AVFoundation (the SDK modules bring Observation in with them).
// swift-corelibs-foundation does not, so AVFoundation, and through it Speech
// and AVFAudio, re-export the toolchain's Observation module: an
// `@Observable` recognizer class compiles with those imports unchanged.
@_exported import Observation

/// A number of sample frames.
public typealias AVAudioFrameCount = UInt32
/// A number of packets (for PCM, one packet is one frame).
public typealias AVAudioPacketCount = UInt32
/// A number of audio channels.
public typealias AVAudioChannelCount = UInt32
/// A position in a file or stream, in sample frames.
public typealias AVAudioFramePosition = Int64
/// The index of a node's input or output bus.
public typealias AVAudioNodeBus = Int
/// The block a node tap receives: a buffer of captured audio and its time.
public typealias AVAudioNodeTapBlock = (AVAudioPCMBuffer, AVAudioTime) -> Void
/// The block an `AVAudioConverter` pulls input from: it gets the number of
/// packets wanted and an out-parameter for the input status.
public typealias AVAudioConverterInputBlock =
    (AVAudioPacketCount, UnsafeMutablePointer<AVAudioConverterInputStatus>) -> AVAudioBuffer?

/// An out-parameter for an `NSError`, as Objective-C methods take it.
/// - Note: swift-corelibs-foundation has no `NSErrorPointer`; this spelling makes
///   `converter.convert(to: out, error: &error) { … }` compile unchanged.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// Ogg Vorbis. Core Audio has no public constant for it; SpeechCompat reports
/// Vorbis files with this code (`'vorb'`).
let speechCompatAudioFormatVorbis: AudioFormatID = 0x766F_7262

/// Settings key: the format ID (`AudioFormatID`).
public let AVFormatIDKey = "AVFormatIDKey"
/// Settings key: the sample rate in hertz (`Double`).
public let AVSampleRateKey = "AVSampleRateKey"
/// Settings key: the number of channels (`Int`).
public let AVNumberOfChannelsKey = "AVNumberOfChannelsKey"
/// Settings key: bits per linear-PCM sample (8, 16, 24 or 32).
public let AVLinearPCMBitDepthKey = "AVLinearPCMBitDepthKey"
/// Settings key: whether linear-PCM samples are floating point (`Bool`).
public let AVLinearPCMIsFloatKey = "AVLinearPCMIsFloatKey"
/// Settings key: whether linear-PCM samples are big-endian (`Bool`).
public let AVLinearPCMIsBigEndianKey = "AVLinearPCMIsBigEndianKey"
/// Settings key: whether linear-PCM channels are stored apart (`Bool`).
public let AVLinearPCMIsNonInterleaved = "AVLinearPCMIsNonInterleaved"
/// Settings key: the encoder quality (an `AVAudioQuality` raw value).
public let AVEncoderAudioQualityKey = "AVEncoderAudioQualityKey"
/// Settings key: the encoder bit rate in bits per second.
public let AVEncoderBitRateKey = "AVEncoderBitRateKey"

/// Encoder quality levels for `AVEncoderAudioQualityKey`.
public enum AVAudioQuality: Int, Sendable {
    /// The lowest quality.
    case min = 0
    /// Low quality.
    case low = 0x20
    /// Medium quality.
    case medium = 0x40
    /// High quality.
    case high = 0x60
    /// The highest quality.
    case max = 0x7F
}
