import Foundation
import SpeechEngine
import SpeechEvaluation
import TestSupport
import Testing

/// Commits during speech on real speech through the real models: what the
/// end of input leaves to decode is a short tail, counted by the engine
/// itself (`StreamingRecognizer.work`, audio seconds, not wall time), and the
/// committed text still matches the batch transcript of the same audio.
@Suite("StreamingTailModelTests", .serialized, .enabled(if: Models.testsEnabled, Models.disabledReason))
struct StreamingTailModelTests {
    let scorer = TranscriptScorer()

    /// Read speech of at least `seconds`: corpus clips trimmed to their
    /// speech, back to back 0.25 s apart (too short a pause for an
    /// endpoint), with their references.
    static func utterance(atLeast seconds: Double) throws -> (audio: [Float], reference: String) {
        var audio: [Float] = []
        var reference: [String] = []
        for entry in try CorpusManifest.entries(set: "librispeech-dev-clean") where Double(audio.count) < seconds * 16_000 {
            let clip = try AudioDecoder.decode(contentsOf: entry.audioURL)
            let regions = SpeechActivityDetector.speechRegions(in: clip)
            let speech = regions.first.map { first in Array(clip[first.lowerBound..<regions.last!.upperBound]) } ?? clip
            audio += speech + SyntheticAudio.silence(seconds: 0.25)
            reference.append(entry.referenceText)
        }
        return (audio, reference.joined(separator: " "))
    }

    /// Streams `audio` as fast as the recognizer takes it; returns the committed text and the work.
    static func stream(_ audio: [Float], options: StreamingOptions) async throws -> (text: String, work: StreamingWork) {
        let recognizer = StreamingRecognizer(accurate: try Models.transcriber(.whisperBase),
                                             fast: try Models.transcriber(.whisperTinyEn), options: options)
        for start in stride(from: 0, to: audio.count, by: 1_600) {
            recognizer.append(Array(audio[start..<min(audio.count, start + 1_600)]))
        }
        recognizer.finish()
        var finals: [String] = []
        for await event in recognizer.events {
            switch event {
            case .final(let hypothesis): finals.append(hypothesis.text)
            case .failed(let error): throw error
            default: break
            }
        }
        return (finals.joined(separator: " "), recognizer.work)
    }

    @Test func theEndOfInputLeavesOnlyTheTailAndTheTextMatchesBatch() async throws {
        let (audio, reference) = try Self.utterance(atLeast: 25)
        var options = StreamingOptions()
        options.transcription.language = "en"
        options.reportsVolatileResults = false
        options.commitsStableWords = true
        let (committed, work) = try await Self.stream(audio, options: options)
        // Words were committed while the speech went on, and the end of input left about two seconds.
        #expect(work.wordsCommittedByAgreement >= 30, "\(work)")
        #expect(work.longestPassAfterEndOfInputSeconds <= 3.0, "\(work)")
        #expect(work.audioAfterEndOfInputSeconds <= 3.5, "\(work)")
        // With fitted windows (opt-in) the encoder follows the pending audio instead of 30 s per pass.
        if options.liveEncoderWindowSeconds != nil {
            #expect(work.accurateEncodedSeconds < 15 * Double(work.accuratePasses), "\(work)")
        }

        let batch = try Models.transcriber().transcribe(samples: audio).text
        let versusBatch = scorer.score(reference: batch, hypothesis: committed, languageTag: "en").counts.rate
        let streamWER = scorer.score(reference: reference, hypothesis: committed, languageTag: "en").counts.rate
        let batchWER = scorer.score(reference: reference, hypothesis: batch, languageTag: "en").counts.rate
        #expect(versusBatch <= 0.05, "stream vs batch \(versusBatch): \(committed) | \(batch)")
        // One word in about ninety is 1.1 points; the recognizer suite's bound for the stream is two.
        #expect(streamWER <= batchWER + 0.02, "stream \(streamWER) vs batch \(batchWER)")
    }
}
