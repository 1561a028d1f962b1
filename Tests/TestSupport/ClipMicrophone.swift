import AVFoundation
import Foundation

/// A microphone without a sound card: an ALSA `file`-plugin PCM that plays
/// a corpus clip (as raw 16 kHz mono S16) as the capture device, chosen by
/// the samples through `SPEECHCOMPAT_ALSA_DEVICE` / `SPEECHCOMPAT_ALSA_CONFIG`.
public struct ClipMicrophone: Sendable {
    /// The folder holding the raw samples and the configuration.
    public let directory: URL
    /// The ALSA configuration defining the device.
    public let configurationURL: URL
    /// The capture PCM the samples open.
    public let deviceName = "migrationmicplug"

    /// Writes the clip's samples and the ALSA configuration to a temporary folder.
    public init(clip: URL) throws {
        directory = try Fixtures.temporaryDirectory("migration-mic")
        let file = try AVAudioFile(forReading: clip, commonFormat: .pcmFormatInt16, interleaved: false)
        guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)),
              file.processingFormat.sampleRate == 16_000, file.processingFormat.channelCount == 1 else {
            throw FixtureError("\(clip.path) is not 16 kHz mono")
        }
        try file.read(into: buffer)
        let raw = directory.appendingPathComponent("speech16k.s16")
        let data = Data(bytes: buffer.int16ChannelData![0], count: Int(buffer.frameLength) * 2)
        try data.write(to: raw)
        configurationURL = directory.appendingPathComponent("asound.conf")
        try """
        pcm.migrationmic { type file slave.pcm "null" file "/dev/null" infile "\(raw.path)" format "raw" }
        pcm.migrationmicplug { type plug slave { pcm "migrationmic" format S16_LE rate 16000 channels 1 } }
        """.write(to: configurationURL, atomically: true, encoding: .utf8)
    }

    /// The environment that makes the samples capture from this microphone.
    public var environment: [String: String] {
        ["SPEECHCOMPAT_ALSA_DEVICE": deviceName, "SPEECHCOMPAT_ALSA_CONFIG": configurationURL.path]
    }

    /// Deletes the folder.
    public func remove() { try? FileManager.default.removeItem(at: directory) }
}
