/// The tokens that condition each window on what came before it: the initial
/// prompt, then every kept segment's sampled tokens, timestamps included.
///
/// Timestamps stay in on purpose. Whisper's reference keeps each segment's
/// tokens as sampled (`all_tokens.extend(segment["tokens"])`, timestamp tokens
/// and all) and prompts the next window with their tail; faster-whisper does
/// the same. A prompt of bare text is one the reference never builds: on speech that runs on without pauses (four LibriSpeech
/// clips joined, 27 s into the file) whisper-base then started its window with
/// the prompt's last clause again and looped on it for a minute and a half,
/// each window holding a few words for 30 s of speech, the later ones confident
/// (average log-probability near -0.1), all under the 2.4 compression ratio,
/// so fallback never fired. With the timestamps the
/// same window reads on, as faster-whisper's does.
/// ref: whisper/transcribe.py `all_tokens`, `prompt_reset_since`
struct PromptHistory: Sendable, Equatable {
    /// The initial prompt's tokens, then every kept segment's, in order.
    private(set) var tokens: [Int]
    /// Tokens before this index no longer condition decoding.
    private(set) var resetIndex = 0

    /// - Parameter initialPrompt: the encoded initial prompt (and glossary), or none.
    init(initialPrompt: [Int] = []) {
        tokens = initialPrompt
    }

    /// Adds one window's kept segments, each as sampled (text and timestamp
    /// tokens, no end-of-text).
    /// - Parameter resetting: when true, this window and everything before it
    ///   stop conditioning later windows: conditioning is off, or the window
    ///   needed a temperature above 0.5, whose text is too uncertain to build on
    ///   (ref: `condition_on_previous_text`, `prompt_reset_on_temperature`).
    mutating func append(segments: [[Int]], resetting: Bool) {
        tokens += segments.joined()
        if resetting { resetIndex = tokens.count }
    }

    /// The decoder prompt's context part: `<|startofprev|>` and the last
    /// `maximumCount` history tokens since the last reset, or nothing when
    /// there are none. ref: decoding.py `prompt[-(n_ctx // 2 - 1):]`
    func context(startOfPrevious: Int, maximumCount: Int) -> [Int] {
        let recent = tokens[resetIndex...].suffix(max(0, maximumCount))
        return recent.isEmpty ? [] : [startOfPrevious] + recent
    }
}
