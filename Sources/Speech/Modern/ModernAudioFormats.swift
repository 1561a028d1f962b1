import AVFoundation
import CoreMedia
import Foundation

/// The audio formats the modern face's modules accept: the engine's rate,
/// mono, as Int16 or Float32 samples. The analyzer never converts buffers,
/// so buffers in other formats fail with `unexpectedAudioFormat`.
enum ModernAudioFormats {
    /// The engine's sample rate, as a `CMTime` timescale.
    static let sampleRate = CMTimeScale(BufferConversion.outputRate)

    /// The accepted formats, best first: 16 kHz mono Int16, then Float32.
    static var analyzerFormats: [AVAudioFormat] {
        [AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: Double(sampleRate), channels: 1,
                       interleaved: false),
         AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: Double(sampleRate), channels: 1,
                       interleaved: false)].compactMap { $0 }
    }

    /// What a transcriber for `locale` accepts: the analyzer formats once a
    /// model serving the locale is installed, nothing before.
    static func compatibleFormats(locale: Locale) -> [AVAudioFormat] {
        ModernAssets.current.isInstalled(locale) ? analyzerFormats : []
    }

    /// Whether buffers in `format` can be analyzed as they are.
    static func isAnalyzerFormat(_ format: AVAudioFormat) -> Bool {
        format.sampleRate == Double(sampleRate) && format.channelCount == 1
            && (format.commonFormat == .pcmFormatInt16 || format.commonFormat == .pcmFormatFloat32)
    }

    /// The best format every module accepts, preferring `naturalFormat`'s
    /// sample type when it is one of them; `nil` when a module's assets are
    /// missing or the modules share no format.
    static func bestFormat(for moduleFormats: [[AVAudioFormat]], considering naturalFormat: AVAudioFormat?)
        -> AVAudioFormat? {
        guard var shared = moduleFormats.first else { return nil }
        for formats in moduleFormats.dropFirst() {
            shared = shared.filter { candidate in formats.contains { accepts($0, candidate) } }
        }
        if let naturalFormat, let match = shared.first(where: { $0.commonFormat == naturalFormat.commonFormat }) {
            return match
        }
        return shared.first
    }

    /// Whether `offered` (from one module's list) accepts buffers in `format`.
    /// A format with sample rate 0 (`kAudioStreamAnyRate`) accepts anything.
    private static func accepts(_ offered: AVAudioFormat, _ format: AVAudioFormat) -> Bool {
        offered.sampleRate == 0 || offered == format
    }

    /// A buffer's samples as Float in [-1, 1], for a buffer in an analyzer
    /// format (checked before: `isAnalyzerFormat`).
    static func samples(of buffer: AVAudioPCMBuffer) throws -> [Float] {
        do {
            return try BufferConversion.monoSamples(of: buffer)
        } catch {
            throw ModernErrors.unexpectedFormat(buffer.format)
        }
    }
}
