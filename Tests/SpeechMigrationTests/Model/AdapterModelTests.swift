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

    @Test("all four paths transcribe the clip; each adapter matches the face it wraps")
    func fourPaths() async throws {
        let report = try await ComparisonRunner(runner: runner).compare(MigrationModelSupport.goForward)
        let byPath = Dictionary(uniqueKeysWithValues: report.outcomes.map { ($0.path, $0) })
        let legacy = try #require(byPath[.legacy]), modern = try #require(byPath[.modern])
        let legacyOverModern = try #require(byPath[.legacyOverModern])
        let modernOverLegacy = try #require(byPath[.modernOverLegacy])
        for outcome in report.outcomes {
            #expect(outcome.error == nil)
            MigrationExpectations.expectEquivalent(outcome, to: OutcomeFixtures.reference(
                "go forward ten meters"), maximumWordErrorRate: 0)
        }
        // The adapter over the modern pipeline gives the modern words and times.
        MigrationExpectations.expectEquivalent(legacyOverModern, to: modern, timingToleranceSeconds: 0.001)
        // The adapter over a legacy task gives the legacy words and times.
        MigrationExpectations.expectEquivalent(modernOverLegacy, to: legacy, timingToleranceSeconds: 0.001)
        // Final legacy-shaped results carry real confidence; events keep the legacy order.
        #expect(legacyOverModern.words.allSatisfy { ($0.confidence ?? 0) > 0 })
        #expect(legacyOverModern.events.first == "detectedSpeech")
        #expect(legacyOverModern.events.suffix(2) == ["finalResult", "finishedSuccessfully"])
        #expect(modernOverLegacy.events.suffix(2) == ["final", "end"])
        #expect(modernOverLegacy.events.contains("volatile"), "legacy partials arrive as volatile results")
        #expect(legacyOverModern.events.contains("hypothesis"), "modern volatile results arrive as partials")
        #expect(report.text.contains("legacy-over-modern vs legacy: WER 0.000"))
    }

    @Test("appended buffers through the adapter equal the file through the modern face")
    func bufferRequest() async throws {
        let recognizer = try #require(ModernBackedSpeechRecognizer(locale: Locale(identifier: "en-US")))
        recognizer.queue = OperationQueue()
        let request = ModernBackedAudioBufferRecognitionRequest()
        for buffer in try MigrationModelSupport.buffers(of: MigrationModelSupport.goForward, frames: 1_600) {
            request.append(buffer)
        }
        request.endAudio()
        let final: SFSpeechRecognitionResult = try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error { continuation.resume(throwing: error) }
                if let result, result.isFinal { continuation.resume(returning: result) }
            }
        }
        let modern = try await runner.run(.modern, on: MigrationModelSupport.goForward)
        #expect(final.bestTranscription.formattedString.lowercased() == modern.transcript.lowercased())
        #expect(final.bestTranscription.segments.allSatisfy { $0.confidence > 0 && $0.duration > 0 })
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
