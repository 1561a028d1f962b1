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

    /// What a module lists in `availableCompatibleAudioFormats`, by its role:
    /// a transcriber's formats depend on its locale's assets; the detector
    /// has none of its own.
    static func formats(for role: ModuleRole) -> [AVAudioFormat] {
        if let settings = role.transcriberSettings { return compatibleFormats(locale: settings.locale) }
        return analyzerFormats
    }

    /// The best format every module accepts, preferring `naturalFormat`'s
    /// sample type when it is one of them; `nil` when a module's assets are
    /// missing or the modules share no format.
    static func bestFormat(for moduleFormats: [[AVAudioFormat]], considering naturalFormat: AVAudioFormat?)
        -> AVAudioFormat? {
        guard !moduleFormats.isEmpty else { return nil }
        let shared = commonFormats(of: moduleFormats)
        if let naturalFormat, let match = shared.first(where: { $0.commonFormat == naturalFormat.commonFormat }) {
            return match
        }
        return shared.first
    }

    /// The formats of the first list that every other list accepts, in the
    /// first list's order (best first).
    static func commonFormats(of moduleFormats: [[AVAudioFormat]]) -> [AVAudioFormat] {
        guard var shared = moduleFormats.first else { return [] }
        for formats in moduleFormats.dropFirst() {
            shared = shared.filter { candidate in formats.contains { accepts($0, candidate) } }
        }
        return shared
    }

    /// Checks an input buffer's format against the formats the analyzer's
    /// modules list (one list per module), where audio enters the analyzer.
    ///
    /// A module with an empty list has no assets yet; it is left out here and
    /// fails with its asset error (`noModel`, `assetLocaleNotAllocated`) when
    /// its session starts. With no module listing formats, the analyzer's own
    /// formats apply.
    /// - Throws: `incompatibleAudioFormats` when the modules that list formats
    ///   share none (no buffer could serve them all); `unexpectedAudioFormat`
    ///   when `format` is not one they share.
    static func checkInput(_ format: AVAudioFormat, moduleFormats: [[AVAudioFormat]]) throws {
        let listed = moduleFormats.filter { !$0.isEmpty }
        let shared = listed.isEmpty ? analyzerFormats : commonFormats(of: listed)
        guard !shared.isEmpty else { throw ModernErrors.incompatibleFormats(listed) }
        guard shared.contains(where: { accepts($0, format) }) else { throw ModernErrors.unexpectedFormat(format) }
    }

    /// Whether `offered` (from one module's list) accepts buffers in `format`.
    /// A format with sample rate 0 (`kAudioStreamAnyRate`) accepts anything;
    /// for one channel, interleaved and deinterleaved are the same memory.
    private static func accepts(_ offered: AVAudioFormat, _ format: AVAudioFormat) -> Bool {
        if offered.sampleRate == 0 || offered == format { return true }
        return offered.commonFormat != .otherFormat && offered.commonFormat == format.commonFormat
            && offered.sampleRate == format.sampleRate && offered.channelCount == 1 && format.channelCount == 1
    }

    /// A buffer's samples as Float in [-1, 1], for a buffer in an analyzer
    /// format (checked before: `checkInput`).
    static func samples(of buffer: AVAudioPCMBuffer) throws -> [Float] {
        do {
            return try BufferConversion.monoSamples(of: buffer)
        } catch {
            throw ModernErrors.unexpectedFormat(buffer.format)
        }
    }
}
