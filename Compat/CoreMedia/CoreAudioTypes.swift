// The CoreAudioTypes names that CoreMedia and AVFoundation share: format
// identifiers, format flags and AudioStreamBasicDescription.

/// A status code returned by Core Audio and Core Media calls (`MacTypes.h`);
/// 0 (`noErr`) means success.
public typealias OSStatus = Int32
/// The status of a call that succeeded.
public let noErr: OSStatus = 0

/// A Core Audio format identifier (a four-character code).
public typealias AudioFormatID = UInt32
/// Flags refining an `AudioFormatID`.
public typealias AudioFormatFlags = UInt32

/// Linear PCM (`'lpcm'`).
public let kAudioFormatLinearPCM: AudioFormatID = 0x6C70_636D
/// MPEG-4 AAC (`'aac '`).
/// - Note: Not decodable on Linux (libsndfile has no AAC).
public let kAudioFormatMPEG4AAC: AudioFormatID = 0x6161_6320
/// Free Lossless Audio Codec (`'flac'`).
public let kAudioFormatFLAC: AudioFormatID = 0x666C_6163
/// Opus (`'opus'`).
public let kAudioFormatOpus: AudioFormatID = 0x6F70_7573
/// MPEG-1/2 Layer 3 (`'.mp3'`).
public let kAudioFormatMPEGLayer3: AudioFormatID = 0x2E6D_7033
/// Apple Lossless (`'alac'`).
public let kAudioFormatAppleLossless: AudioFormatID = 0x616C_6163

/// Samples are floating point.
public let kAudioFormatFlagIsFloat: AudioFormatFlags = 1 << 0
/// Samples are big-endian.
public let kAudioFormatFlagIsBigEndian: AudioFormatFlags = 1 << 1
/// Integer samples are signed.
public let kAudioFormatFlagIsSignedInteger: AudioFormatFlags = 1 << 2
/// Samples fill their bytes completely.
public let kAudioFormatFlagIsPacked: AudioFormatFlags = 1 << 3
/// Channels are stored in separate buffers.
public let kAudioFormatFlagIsNonInterleaved: AudioFormatFlags = 1 << 5
/// Native-endian packed Float32 (`kAudioFormatFlagsNativeFloatPacked`).
public let kAudioFormatFlagsNativeFloatPacked: AudioFormatFlags = kAudioFormatFlagIsFloat | kAudioFormatFlagIsPacked

/// Describes a stream of audio data: Core Audio's basic format record.
public struct AudioStreamBasicDescription: Sendable, Equatable {
    /// Frames per second.
    public var mSampleRate: Double
    /// The format identifier, e.g. `kAudioFormatLinearPCM`.
    public var mFormatID: AudioFormatID
    /// Format flags, e.g. `kAudioFormatFlagIsFloat`.
    public var mFormatFlags: AudioFormatFlags
    /// Bytes per packet (for PCM, per frame).
    public var mBytesPerPacket: UInt32
    /// Frames per packet (1 for PCM).
    public var mFramesPerPacket: UInt32
    /// Bytes per frame in one buffer.
    public var mBytesPerFrame: UInt32
    /// Channels per frame.
    public var mChannelsPerFrame: UInt32
    /// Bits per sample of one channel.
    public var mBitsPerChannel: UInt32
    /// Reserved; 0.
    public var mReserved: UInt32

    /// Creates an all-zero description.
    public init() {
        self.init(mSampleRate: 0, mFormatID: 0, mFormatFlags: 0, mBytesPerPacket: 0, mFramesPerPacket: 0,
                  mBytesPerFrame: 0, mChannelsPerFrame: 0, mBitsPerChannel: 0, mReserved: 0)
    }

    /// Creates a description from every field.
    public init(mSampleRate: Double, mFormatID: AudioFormatID, mFormatFlags: AudioFormatFlags,
                mBytesPerPacket: UInt32, mFramesPerPacket: UInt32, mBytesPerFrame: UInt32,
                mChannelsPerFrame: UInt32, mBitsPerChannel: UInt32, mReserved: UInt32) {
        self.mSampleRate = mSampleRate
        self.mFormatID = mFormatID
        self.mFormatFlags = mFormatFlags
        self.mBytesPerPacket = mBytesPerPacket
        self.mFramesPerPacket = mFramesPerPacket
        self.mBytesPerFrame = mBytesPerFrame
        self.mChannelsPerFrame = mChannelsPerFrame
        self.mBitsPerChannel = mBitsPerChannel
        self.mReserved = mReserved
    }
}
