/// Splits one window's tokens into segments at timestamp pairs and says how
/// far to seek. ref: whisper/transcribe.py (the `consecutive` timestamp block)
struct SegmentBuilder {
    let special: SpecialTokens

    struct WindowSegments {
        /// Token slices with their start and end, seconds from the window start.
        var pieces: [(start: Double, end: Double, tokens: [Int])]
        /// Mel frames to advance past this window.
        var seekFrames: Int
    }

    /// - Parameters:
    ///   - tokens: sampled tokens without end-of-text.
    ///   - windowFrames: mel frames of real audio in the window.
    ///   - keepsTail: text after the last complete timestamp pair becomes a
    ///     last segment running to the window's end, instead of being left
    ///     for the next window to decode again (a batched chunk has no next window).
    func split(_ tokens: [Int], windowFrames: Int, keepsTail: Bool = false) -> WindowSegments {
        let isTimestamp = tokens.map { $0 >= special.timestampBegin }
        let seconds = { (token: Int) in Double(token - special.timestampBegin) * SpecialTokens.secondsPerTimestamp }
        let singleTimestampEnding = isTimestamp.count >= 2 && !isTimestamp[isTimestamp.count - 2] && isTimestamp.last!
        var consecutive: [Int] = []
        if tokens.count >= 2 {
            for i in 1..<tokens.count where isTimestamp[i - 1] && isTimestamp[i] { consecutive.append(i) }
        }
        if !consecutive.isEmpty {
            var slices = consecutive
            if singleTimestampEnding { slices.append(tokens.count) }
            var pieces: [(Double, Double, [Int])] = []
            var last = 0
            for current in slices {
                let slice = Array(tokens[last..<current])
                pieces.append((seconds(slice.first!), seconds(slice.last!), slice))
                last = current
            }
            if singleTimestampEnding { return WindowSegments(pieces: pieces, seekFrames: windowFrames) }
            if keepsTail, last < tokens.count, tokens[last...].contains(where: { $0 < special.timestampBegin }) {
                let tail = Array(tokens[last...])
                let start = tail[0] >= special.timestampBegin ? seconds(tail[0]) : seconds(tokens[last - 1])
                pieces.append((start, max(start, Double(windowFrames) / 100), tail))
                return WindowSegments(pieces: pieces, seekFrames: windowFrames)
            }
            // Seek to the last complete timestamp: two mel frames per timestamp step.
            let lastTimestampIndex = tokens[last - 1] - special.timestampBegin
            return WindowSegments(pieces: pieces, seekFrames: max(1, lastTimestampIndex * 2))
        }
        var duration = Double(windowFrames) / 100
        if let lastTimestamp = tokens.last(where: { $0 >= special.timestampBegin }), lastTimestamp != special.timestampBegin {
            duration = seconds(lastTimestamp)
        }
        return WindowSegments(pieces: [(0, duration, tokens)], seekFrames: windowFrames)
    }
}
