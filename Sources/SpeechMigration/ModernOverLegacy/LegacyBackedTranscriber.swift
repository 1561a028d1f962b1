import CoreMedia
import Foundation
import Speech

/// Modern-style results (an async sequence of `SpeechTranscriber.Result`-
/// shaped values) driven by a legacy `SFSpeechRecognitionTask`, so new async
/// code can run on legacy-configured requests: contextual strings, task
/// hints, custom language models, `addsPunctuation`, the on-device flag.
///
/// ```swift
/// let request = SFSpeechURLRecognitionRequest(url: fileURL)
/// request.contextualStrings = ["SpeechCompat"]
/// let transcriber = LegacyBackedTranscriber(recognizer: recognizer, request: request)
/// for try await result in transcriber.results where result.isFinal {
///     print(String(result.text.characters))
/// }
/// ```
///
/// Mapping: each partial result becomes a volatile `Result` over the audio
/// processed so far, replacing the previous one (legacy partials are
/// cumulative); the final result becomes one final `Result` whose runs carry
/// `audioTimeRange` and `transcriptionConfidence` from the segments, and
/// whose `alternatives` are the legacy `transcriptions`. A legacy error is
/// thrown from `results` unchanged (`kAFAssistantErrorDomain` 1110 for no
/// speech, `kLSRErrorDomain` 301 after `cancel()`).
///
/// Unmapped: `SFSpeechRecognitionMetadata` and voice analytics (no modern
/// counterpart); per-segment `alternativeSubstrings`; partial results have
/// no confidence attribute and carry no time ranges (the legacy face
/// reports zeros there), and their range ends at the last
/// `didProcessAudioDuration`. There is no `SpeechAnalyzer`: finish or cancel
/// through `finish()` / `cancel()`.
public final class LegacyBackedTranscriber: NSObject, SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
    // @unchecked: `processedSeconds` and `task` are behind `lock`; delegate calls arrive serially.

    /// The results, in order; ends after the final result, throws the task's error.
    public let results: AsyncThrowingStream<Result, any Error>
    private let continuation: AsyncThrowingStream<Result, any Error>.Continuation
    private let lock = NSLock()
    private var processedSeconds: Double = 0
    private var task: SFSpeechRecognitionTask?
    /// Keeps the adapter (the task's weak delegate) alive until the task ends.
    private var retainedSelf: LegacyBackedTranscriber?

    /// Starts `request` on `recognizer` at once; read `results`.
    /// - Note: The recognizer's `queue` receives the delegate calls; set it to
    ///   an `OperationQueue()` in programs without a main run loop.
    public init(recognizer: SFSpeechRecognizer, request: SFSpeechRecognitionRequest) {
        (results, continuation) = AsyncThrowingStream.makeStream(of: Result.self)
        super.init()
        lock.withLock { retainedSelf = self }
        let task = recognizer.recognitionTask(with: request, delegate: self)
        lock.withLock { self.task = task }
    }

    /// The legacy task underneath.
    public var recognitionTask: SFSpeechRecognitionTask? { lock.withLock { task } }

    /// Finishes the task: audio stops, the final result follows.
    public func finish() { recognitionTask?.finish() }

    /// Cancels the task: `results` throws the cancellation error.
    public func cancel() { recognitionTask?.cancel() }

    /// Records progress for the volatile range.
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval) {
        lock.withLock { processedSeconds = max(processedSeconds, duration) }
    }

    /// Publishes a partial result as a volatile `Result`.
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                      didHypothesizeTranscription transcription: SFTranscription) {
        let end = lock.withLock { processedSeconds }
        let lastWordEnd = transcription.segments.map { $0.timestamp + $0.duration }.max() ?? 0
        continuation.yield(Result(volatile: transcription, endSeconds: max(end, lastWordEnd)))
    }

    /// Publishes the final result.
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                      didFinishRecognition recognitionResult: SFSpeechRecognitionResult) {
        let end = lock.withLock { processedSeconds }
        continuation.yield(Result(final: recognitionResult, processedSeconds: end))
    }

    /// Ends `results`, throwing the task's error if it failed.
    public func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
        if successfully {
            continuation.finish()
        } else {
            continuation.finish(throwing: task.error ?? MigrationError(.recognitionFailed, "The legacy task failed."))
        }
        lock.withLock { retainedSelf = nil }
    }
}
