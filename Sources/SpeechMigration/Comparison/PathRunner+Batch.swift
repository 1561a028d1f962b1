import Foundation
import Speech

extension PathRunner {
    /// The engine's batch decoding of the file with the legacy path's
    /// settings, through no face: what both faces should deliver.
    func runBatch(_ url: URL) async throws -> RecognitionOutcome {
        let request = SFSpeechURLRecognitionRequest(url: url)
        configure(request)
        let span: RecognizedSpan
        do {
            span = try BatchRecognition.transcribe(fileAt: url, locale: locale,
                                                   configuration: request.recognitionConfiguration())
        } catch {
            return Self.failure(.batch, events: [], error)
        }
        let words = span.words.map {
            TimedWord(text: $0.text.trimmingCharacters(in: .whitespaces), startSeconds: $0.startSeconds,
                      durationSeconds: $0.endSeconds - $0.startSeconds, confidence: $0.confidence)
        }.filter { !$0.text.isEmpty }
        let alternatives = span.alternatives.map(\.text).filter { $0 != span.text }
        return RecognitionOutcome(path: .batch, transcript: span.text, words: words, alternatives: alternatives,
                                  events: span.text.isEmpty ? ["end"] : ["final", "end"], error: nil)
    }
}
