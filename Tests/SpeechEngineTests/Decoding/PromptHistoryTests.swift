import Testing
@testable import SpeechEngine

/// What conditions the next window: whisper/transcribe.py keeps each segment's
/// tokens as sampled (`all_tokens.extend(segment["tokens"])`), cuts the prompt
/// to the last `n_text_ctx // 2 - 1` of them, and starts over after a window
/// decoded above temperature 0.5 (`prompt_reset_since`).
@Suite struct PromptHistoryTests {
    static let special = SpecialTokens(isMultilingual: true)
    static let startOfPrevious = special.startOfPrevious
    static func ts(_ seconds: Double) -> Int { special.timestampBegin + Int((seconds / 0.02).rounded()) }

    @Test("Nothing decoded and no initial prompt: no <|startofprev|> at all")
    func emptyHistoryHasNoContext() {
        #expect(PromptHistory().context(startOfPrevious: Self.startOfPrevious, maximumCount: 223) == [])
    }

    @Test("Segments go into the prompt as sampled, timestamp tokens included, after the initial prompt")
    func segmentsKeepTheirTimestamps() {
        var history = PromptHistory(initialPrompt: [900, 901])
        let first = [Self.ts(0), 400, 401, Self.ts(6.4)]
        let second = [Self.ts(6.4), 402, Self.ts(11.4)]
        history.append(segments: [first, second], resetting: false)
        #expect(history.context(startOfPrevious: Self.startOfPrevious, maximumCount: 223)
            == [Self.startOfPrevious, 900, 901] + first + second)
        // A later window's segments come after, in order.
        history.append(segments: [[Self.ts(0), 403, Self.ts(2)]], resetting: false)
        #expect(history.tokens == [900, 901] + first + second + [Self.ts(0), 403, Self.ts(2)])
    }

    @Test("Only the newest tokens fit: the cut keeps the tail (ref: prompt[-(n_ctx // 2 - 1):])")
    func contextKeepsTheNewestTokens() {
        var history = PromptHistory(initialPrompt: [900])
        history.append(segments: [[Self.ts(0), 400, 401, 402, Self.ts(3)]], resetting: false)
        #expect(history.context(startOfPrevious: Self.startOfPrevious, maximumCount: 3)
            == [Self.startOfPrevious, 401, 402, Self.ts(3)])
        #expect(history.context(startOfPrevious: Self.startOfPrevious, maximumCount: 0) == [])
    }

    @Test("A resetting window and all before it, the initial prompt too, stop conditioning what follows")
    func resetDropsEverythingBefore() {
        var history = PromptHistory(initialPrompt: [900])
        history.append(segments: [[Self.ts(0), 400, Self.ts(1)]], resetting: false)
        history.append(segments: [[Self.ts(0), 401, Self.ts(1)]], resetting: true)
        #expect(history.context(startOfPrevious: Self.startOfPrevious, maximumCount: 223) == [])
        history.append(segments: [[Self.ts(0), 402, Self.ts(1)]], resetting: false)
        #expect(history.context(startOfPrevious: Self.startOfPrevious, maximumCount: 223)
            == [Self.startOfPrevious, Self.ts(0), 402, Self.ts(1)])
        // The tokens themselves are kept; only what conditions decoding moves on.
        #expect(history.tokens.count == 10)
    }

    @Test("A window that kept no segment adds nothing, and a reset then still takes effect")
    func emptyWindow() {
        var history = PromptHistory()
        history.append(segments: [[Self.ts(0), 400, Self.ts(1)]], resetting: false)
        let before = history
        history.append(segments: [], resetting: false)
        #expect(history == before)
        history.append(segments: [], resetting: true)
        #expect(history.context(startOfPrevious: Self.startOfPrevious, maximumCount: 223) == [])
    }
}
