import Testing
@testable import SpeechEngine

/// The caps on contextual phrases: at most 100 used, the glossary within
/// its share of the prompt budget, one boost per token however many
/// phrases share it.
@Suite struct ContextualPhrasesTests {
    static let thousand = (1...1_000).map { "phrase number \($0)" }

    @Test func aThousandPhrasesAreCutToTheFirstHundred() throws {
        let tokenizer = try TokenizerFixtures.base()
        let phrases = ContextualPhrases(Self.thousand, tokenizer: tokenizer)
        #expect(phrases.phrases == Array(Self.thousand.prefix(100)))
        #expect(phrases.biasSequences.count == 200)
        #expect(phrases.biasSequences.allSatisfy { $0.count <= ContextualPhrases.maximumBiasTokenCount })
    }

    @Test func glossaryStaysWithinItsPromptBudget() throws {
        let tokenizer = try TokenizerFixtures.base()
        let phrases = ContextualPhrases(Self.thousand, tokenizer: tokenizer)
        let tokens = tokenizer.encode(" " + phrases.glossary)
        #expect(tokens.count <= ContextualPhrases.glossaryTokenBudget)
        // Whole phrases in order, the first one first.
        #expect(phrases.glossary.hasPrefix("phrase number 1, phrase number 2, "))
        #expect(phrases.glossary.hasSuffix("."))
        #expect(ContextualPhrases.glossaryTokenBudget <= (448 / 2 - 1) / 2)
    }

    @Test func blanksAndRepeatsAreDropped() throws {
        let tokenizer = try TokenizerFixtures.base()
        let phrases = ContextualPhrases(["  SpeechCompat ", "", "speechcompat", "   ", "Whisper", "SPEECHCOMPAT"],
                                        tokenizer: tokenizer)
        #expect(phrases.phrases == ["SpeechCompat", "Whisper"])
        #expect(phrases.glossary == "SpeechCompat, Whisper.")
    }

    @Test func noPhrasesNoGlossary() throws {
        let phrases = ContextualPhrases([], tokenizer: try TokenizerFixtures.base())
        #expect(phrases.glossary.isEmpty && phrases.biasSequences.isEmpty)
    }

    /// A hundred phrases that start alike raise their shared first token by
    /// half the boost once, not a hundred times.
    @Test func sharedTokensAreBoostedOnce() {
        let sequences = (0..<100).map { [7, 8, 100 + $0] }
        let table = PhraseBiasTable(sequences)
        let first = table.boosts(after: [], boost: 2)
        #expect(first == [7: 1])
        let afterSeven = table.boosts(after: [1, 2, 7], boost: 2)
        #expect(afterSeven[8] == 2)
        #expect(afterSeven[7] == 1)
        let afterSevenEight = table.boosts(after: [7, 8], boost: 2)
        #expect(afterSevenEight.count == 101)
        #expect((100..<200).allSatisfy { afterSevenEight[$0] == 2 })
    }

    @Test func filterAddsEachBoostOnceAndSkipsSuppressedTokens() {
        let table = PhraseBiasTable(Array(repeating: [3, 4], count: 50))
        var logits = [Float](repeating: 0, count: 10)
        logits[4] = -.infinity
        let filter = LogitFilters.phraseBias(table, boost: 2)
        logits.withUnsafeMutableBufferPointer { filter.apply($0, [9, 9, 3], 2) }
        #expect(logits[3] == 1)
        #expect(logits[4] == -.infinity)
        #expect(logits.enumerated().allSatisfy { $0.offset == 3 || $0.offset == 4 || $0.element == 0 })
    }

    @Test(arguments: [-1.0, 10.5, .infinity, .nan])
    func phraseBoostOutOfRangeIsRejected(_ boost: Double) {
        var options = TranscriptionOptions()
        options.phraseBoost = boost
        let error = #expect(throws: EngineError.self) { try Transcriber.validate(options) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("phrase boost must be between 0 and 10") == true)
    }

    @Test func aThousandPhrasesPassValidation() throws {
        var options = TranscriptionOptions()
        options.phrases = Self.thousand
        try Transcriber.validate(options)
    }
}
