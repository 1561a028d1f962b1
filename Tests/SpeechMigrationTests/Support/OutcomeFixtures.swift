import SpeechMigration

/// Hand-made outcomes for fast tests of comparison, equivalence and suites
/// (the real faces are exercised by the model tests).
enum OutcomeFixtures {
    /// An outcome whose words are `text`'s words, 0.5 s apart, each 0.4 s long.
    static func outcome(_ path: RecognitionPath, _ text: String, shift: Double = 0,
                        events: [String] = ["detectedSpeech", "hypothesis", "finalResult"],
                        error: String? = nil) -> RecognitionOutcome {
        let words = text.split(separator: " ").enumerated().map { index, word in
            TimedWord(text: String(word), startSeconds: Double(index) * 0.5 + shift, durationSeconds: 0.4,
                      confidence: 0.9)
        }
        return RecognitionOutcome(path: path, transcript: text, words: words, events: events, error: error)
    }
}

extension OutcomeFixtures {
    /// A reference text as an outcome (no times), to compare transcripts with.
    static func reference(_ text: String) -> RecognitionOutcome {
        RecognitionOutcome(path: .legacy, transcript: text, words: [], events: [])
    }
}
