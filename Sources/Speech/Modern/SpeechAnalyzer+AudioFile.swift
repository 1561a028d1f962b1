import AVFoundation
import CoreMedia
import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer {
    /// Creates an analyzer and starts analyzing an audio file, converting its
    /// audio to the modules' format.
    ///
    /// With `finishAfterFile: true` the analyzer finalizes and finishes once
    /// the file is analyzed (as `finalizeAndFinishThroughEndOfInput()`);
    /// otherwise it stays open for more input, and its result sequences end
    /// only when a finish method is called.
    /// - Throws: `SFSpeechError.Code.audioReadFailed` when the file cannot be read.
    public init(inputAudioFile: AVAudioFile,
                modules: [any SpeechModule],
                options: Options? = nil,
                analysisContext: AnalysisContext = .init(),
                finishAfterFile: Bool = false,
                volatileRangeChangedHandler: sending ((_ range: CMTimeRange, _ changedStart: Bool, _ changedEnd: Bool) -> Void)? = nil) async throws {
        self.init(modules: modules, options: options, analysisContext: analysisContext,
                  volatileRangeChangedHandler: volatileRangeChangedHandler, inputLoop: nil)
        try await start(inputAudioFile: inputAudioFile, finishAfterFile: finishAfterFile)
    }

    /// Starts autonomous analysis of an audio file and returns at once,
    /// replacing any input sequence being analyzed.
    ///
    /// With `finishAfterFile: true` the analyzer finalizes and finishes once
    /// the file is analyzed.
    /// - Throws: `SFSpeechError.Code.audioReadFailed` when the file cannot be
    ///   read, or the error that failed the analysis.
    public final func start(inputAudioFile audioFile: AVAudioFile, finishAfterFile: Bool = false) async throws {
        try throwIfFailed()
        try Self.checkReadable(audioFile)
        guard beginInput(SpeechAnalyzer.recordingLoop(for: AudioFileInput(file: audioFile))) != nil else { return }
        if finishAfterFile {
            let weakSelf = WeakAnalyzer(self)
            _ = scheduler.task(analyzerOptions.priority) {
                // Failures reach the result sequences; nothing else waits here.
                try? await weakSelf.analyzer?.finalizeAndFinishThroughEndOfInput()
            }
        }
    }

    /// Analyzes a whole audio file, converting its audio to the modules'
    /// format, and returns the time just after its last sample, or `nil` if
    /// the file is empty (and nothing was consumed before).
    ///
    /// Results may still be pending when this returns; finish with
    /// `finalizeAndFinish(through:)` or `cancelAndFinishNow()`.
    /// - Throws: `SFSpeechError.Code.audioReadFailed` when the file cannot be
    ///   read, or the error that failed the analysis.
    @discardableResult
    public final func analyzeSequence(from audioFile: AVAudioFile) async throws -> CMTime? {
        try throwIfFailed()
        try Self.checkReadable(audioFile)
        return try await analyze(SpeechAnalyzer.recordingLoop(for: AudioFileInput(file: audioFile)))
    }

    /// The consumption loop for a file: the whole file read, then handed to
    /// the transcribers as one recording.
    static func recordingLoop(for input: AudioFileInput) -> InputLoop {
        { weakAnalyzer, generation in
            do {
                let samples = try input.samples()
                guard let analyzer = weakAnalyzer.analyzer,
                      await analyzer.consumeRecording(samples, generation: generation) else { return }
                await analyzer.inputSequenceEnded(generation: generation)
            } catch {
                await weakAnalyzer.analyzer?.inputSequenceFailed(error, generation: generation)
            }
        }
    }

    /// Throws `audioReadFailed` for a file that cannot be read (closed, or
    /// not PCM once decoded).
    static func checkReadable(_ file: AVAudioFile) throws {
        guard file.isOpen, file.processingFormat.channelCount > 0, file.processingFormat.sampleRate > 0 else {
            throw AudioFileInput.readError(file, underlying: nil)
        }
    }
}
