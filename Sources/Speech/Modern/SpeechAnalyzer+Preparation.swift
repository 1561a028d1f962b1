import AVFoundation
import CoreMedia
import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer {
    /// The best-quality format the modules all accept, given the assets
    /// installed; `nil` when assets are missing or the modules share no
    /// format. Convert buffers to it: the analyzer never converts buffers.
    /// - Note: On Linux: 16 kHz mono Int16 once the models of every
    ///   transcriber's locale are installed.
    public static func bestAvailableAudioFormat(compatibleWith modules: [any SpeechModule]) async -> AVAudioFormat? {
        await bestAvailableAudioFormat(compatibleWith: modules, considering: nil)
    }

    /// The best format the modules all accept, preferring one close to the
    /// audio's `naturalFormat` (its sample type, on Linux); `nil` when assets
    /// are missing or the modules share no format.
    public static func bestAvailableAudioFormat(compatibleWith modules: [any SpeechModule],
                                                considering naturalFormat: AVAudioFormat?) async -> AVAudioFormat? {
        var formats: [[AVAudioFormat]] = []
        for module in modules {
            formats.append(await module.availableCompatibleAudioFormats)
        }
        return ModernAudioFormats.bestFormat(for: formats, considering: naturalFormat)
    }

    /// Loads what the analysis needs before input arrives, so that the first
    /// results come sooner. A `nil` or different format is fine: the analyzer
    /// reconfigures itself when input arrives.
    /// - Note: On Linux this starts each transcriber's recognition backend, which
    ///   loads its Whisper model.
    /// - Throws: the error that failed the analysis, or an asset error
    ///   (`noModel`, `assetLocaleNotAllocated`) for a transcriber that cannot run.
    public final func prepareToAnalyze(in audioFormat: AVAudioFormat?) async throws {
        try await prepareToAnalyze(in: audioFormat, withProgressReadyHandler: nil)
    }

    /// Loads what the analysis needs, like `prepareToAnalyze(in:)`, and hands
    /// `progressReadyHandler` a `Progress` once loading can report it.
    public final func prepareToAnalyze(in audioFormat: AVAudioFormat?,
                                       withProgressReadyHandler progressReadyHandler: sending ((Progress) -> Void)?)
        async throws {
        try throwIfFailed()
        guard case .active = phase else { return }
        let pending = runnerOrder().filter { runners[$0]?.backend == nil && runners[$0]?.isRemoved == false }
        let progress = Progress(totalUnitCount: Int64(max(1, pending.count)))
        progressReadyHandler?(progress)
        for id in pending {
            guard var runner = runners[id], runner.backend == nil else { continue }
            try startBackend(for: &runner, at: nil)
            runners[id] = runner
            progress.completedUnitCount += 1
        }
        progress.completedUnitCount = progress.totalUnitCount
    }
}
