import AVFoundation
import Foundation
import Speech
import SpeechMigration
import SpeechMigrationTesting
import Testing
import TestSupport

/// The adapters against the native faces on real speech through the real
/// engine: the same audio must give equivalent results both ways.
@Suite("Adapters on the real engine",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct AdapterModelTests {
    private let runner = PathRunner(locale: Locale(identifier: "en-US"))

    @Test("all five paths transcribe the clip; the same code gives the same result on either pipeline")
    func fourPaths() async throws {
        let report = try await ComparisonRunner(runner: runner).compare(MigrationModelSupport.goForward)
        let byPath = Dictionary(uniqueKeysWithValues: report.outcomes.map { ($0.path, $0) })
        let legacy = try #require(byPath[.legacy]), modern = try #require(byPath[.modern])
        let legacyOverModern = try #require(byPath[.legacyOverModern])
        let modernOverLegacy = try #require(byPath[.modernOverLegacy])
        let batch = try #require(byPath[.batch])
        for outcome in report.outcomes {
            #expect(outcome.error == nil)
            MigrationExpectations.expectEquivalent(outcome, to: OutcomeFixtures.reference(
                "go forward ten meters"), maximumWordErrorRate: 0)
        }
        // Both faces deliver the engine's batch decoding of the file.
        #expect(legacy.transcript == batch.transcript)
        MigrationExpectations.expectEquivalent(legacy, to: batch, timingToleranceSeconds: 0.001)
        MigrationExpectations.expectEquivalent(modern, to: batch, timingToleranceSeconds: 0.001)
        // Legacy code on the modern pipeline: the legacy result and delegate order.
        MigrationExpectations.expectEquivalent(legacyOverModern, to: legacy, timingToleranceSeconds: 0.001)
        #expect(legacyOverModern.events == legacy.events)
        #expect(legacyOverModern.words.allSatisfy { ($0.confidence ?? 0) > 0 })
        // Modern code on the legacy pipeline: the modern result and event shape.
        MigrationExpectations.expectEquivalent(modernOverLegacy, to: modern, timingToleranceSeconds: 0.001)
        #expect(modernOverLegacy.events.suffix(2) == ["final", "end"])
        #expect(modernOverLegacy.events.contains("volatile"), "legacy partials arrive as volatile results")
        #expect(report.text.contains("legacy-over-modern vs legacy: WER 0.000"))
    }

    @Test("a legacy buffer request fed live gives the same final on the modern pipeline as natively")
    func liveBufferRequest() async throws {
        let buffers = try MigrationModelSupport.buffers(of: MigrationModelSupport.goForward, frames: 1_600)
        func recognize(modernPipeline: Bool) async throws -> SFSpeechRecognitionResult {
            let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
            recognizer.queue = OperationQueue()
            if modernPipeline { recognizer.useModernPipeline() }
            let request = SFSpeechAudioBufferRecognitionRequest()
            request.requiresOnDeviceRecognition = true
            let recorder = LiveRecorder()
            let task = recognizer.recognitionTask(with: request, delegate: recorder)
            for buffer in buffers { request.append(buffer) }
            request.endAudio()
            let result = try await recorder.final()
            #expect(task.state == .completed)
            #expect(recorder.calls.first == "detectedSpeech")
            #expect(recorder.calls.suffix(2) == ["finalResult", "finished(true)"])
            return result
        }
        let native = try await recognize(modernPipeline: false)
        let modern = try await recognize(modernPipeline: true)
        #expect(modern.bestTranscription.formattedString == native.bestTranscription.formattedString)
        #expect(modern.bestTranscription.segments.allSatisfy { $0.confidence > 0 && $0.duration > 0 })
    }

    @Test("modern live input on the legacy pipeline: finalize(through:) gives a final, the rest follows")
    func liveAnalysisOnLegacyTasks() async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), transcriptionOptions: [],
                                            reportingOptions: [.volatileResults],
                                            attributeOptions: [.audioTimeRange, .transcriptionConfidence])
        transcriber.useLegacyPipeline()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let collector = Task {
            var finals: [SpeechTranscriber.Result] = [], volatiles = 0
            for try await result in transcriber.results {
                if result.isFinal { finals.append(result) } else { volatiles += 1 }
            }
            return (finals, volatiles)
        }
        let (input, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        try await analyzer.start(inputSequence: input)
        let clip = Fixtures.corpusClip("audio/librispeech-dev-clean/1272-128104-0000.wav")
        let buffers = try MigrationModelSupport.buffers(of: clip, frames: 1_600)
        let half = buffers.count / 2
        for buffer in buffers[..<half] { continuation.yield(AnalyzerInput(buffer: buffer)) }
        let cut = CMTime(value: CMTimeValue(half * 1_600), timescale: 16_000)
        try await analyzer.finalize(through: cut)
        for buffer in buffers[half...] { continuation.yield(AnalyzerInput(buffer: buffer)) }
        continuation.finish()
        try await analyzer.finalizeAndFinishThroughEndOfInput()
        let (finals, volatiles) = try await collector.value
        #expect(finals.count >= 2, "the legacy task finalized at the cut, a second task took the rest")
        #expect(volatiles > 0)
        let first = try #require(finals.first)
        #expect(abs(first.range.end.seconds - cut.seconds) < 0.1, "legacy tasks finalize all audio given to them")
        let starts = finals.flatMap { AttributedTranscript.words(in: $0.text) }.map(\.startSeconds)
        #expect(starts == starts.sorted() && (starts.last ?? 0) > cut.seconds)
        let text = finals.map { AttributedTranscript.plainText(of: $0.text, keepingPunctuation: false) }
            .joined(separator: " ")
        let outcome = RecognitionOutcome(path: .modernOverLegacy, transcript: text, words: [], events: [])
        MigrationExpectations.expectEquivalent(outcome, to: OutcomeFixtures.reference(
            "mister quilter is the apostle of the middle classes and we are glad to welcome his gospel"),
            maximumWordErrorRate: 0.2)
    }

    @Test("the rolling adapter cuts long audio into stretches and loses nothing")
    func rolling() async throws {
        let folder = try Fixtures.temporaryDirectory("rolling")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clips = ["audio/librispeech-dev-clean/1272-128104-0000.wav", "audio/pocketsphinx/ps_goforward.wav",
                     "audio/librispeech-dev-clean/1272-128104-0000.wav"].map(Fixtures.corpusClip)
        let long = try MigrationModelSupport.concatenate(clips, into: folder)
        let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
        recognizer.queue = OperationQueue()
        // Stretches of 6 s under a 7 s limit stand in for 55 s under 60 s.
        let rolling = RollingRecognizer(recognizer: recognizer, stretchSeconds: 6, lookbackSeconds: 1.5) { request in
            request.maximumRecognitionDuration = 7
        }
        for buffer in try MigrationModelSupport.buffers(of: long) { rolling.append(buffer) }
        rolling.endAudio()
        let transcript = try await rolling.transcript()
        #expect(transcript.stretches.count >= 3)
        let whole = try await runner.run(.legacy, on: long)
        let rolled = RecognitionOutcome(path: .legacy, transcript: transcript.text, words: transcript.words, events: [])
        MigrationExpectations.expectEquivalent(rolled, to: whole, maximumWordErrorRate: 0.1)
        let starts = transcript.words.map(\.startSeconds)
        #expect(starts == starts.sorted(), "word times run on across stretches")
        #expect((starts.last ?? 0) > 12)
    }
}

/// Records a legacy task's delegate calls and hands back its final result.
final class LiveRecorder: NSObject, SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
    // @unchecked: delegate calls arrive serially on the recognizer's queue.
    private let lock = NSLock()
    private var recorded: [String] = []
    private var result: SFSpeechRecognitionResult?
    private var error: (any Error)?
    private var ended = false
    private var waiter: CheckedContinuation<SFSpeechRecognitionResult, any Error>?

    var calls: [String] { lock.withLock { recorded } }

    /// Waits for the task to end: its final result, or its error.
    func final() async throws -> SFSpeechRecognitionResult {
        try await withCheckedThrowingContinuation { continuation in
            let outcome: Result<SFSpeechRecognitionResult, any Error>? = lock.withLock {
                guard ended else {
                    waiter = continuation
                    return nil
                }
                if let result { return .success(result) }
                return .failure(error ?? CancellationError())
            }
            if let outcome { continuation.resume(with: outcome) }
        }
    }

    func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) { record("detectedSpeech") }
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription) {
        record("hypothesis")
    }
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult) {
        lock.withLock { result = recognitionResult }
        record("finalResult")
    }
    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
        record("finished(\(successfully))")
        let (waiting, outcome): (CheckedContinuation<SFSpeechRecognitionResult, any Error>?,
                                 Result<SFSpeechRecognitionResult, any Error>) = lock.withLock {
            ended = true
            error = task.error
            defer { waiter = nil }
            return (waiter, result.map { .success($0) } ?? .failure(task.error ?? CancellationError()))
        }
        waiting?.resume(with: outcome)
    }

    private func record(_ call: String) { lock.withLock { recorded.append(call) } }
}
