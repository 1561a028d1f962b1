import Foundation

/// Word timing from cross-attention: the alignment heads' attention over
/// the audio, normalised and median-filtered, then a DTW path from text
/// tokens to audio frames. Word confidence is the mean probability of its tokens.
/// ref: whisper/timing.py `find_alignment`, `add_word_timestamps`
struct WordAlignment {
    let model: WhisperModel
    /// Audio positions per second (1500 per 30 s window).
    static let positionsPerSecond = 50.0
    static let medianFilterWidth = 7

    /// Aligns `textTokens` (one window's text, no timestamps) against the
    /// window's audio and returns words with times relative to the window start.
    /// - Parameter frameCount: mel frames of real audio in the window.
    /// A word and how many of the window's text tokens it spans.
    struct AlignedWord {
        var timing: WordTiming
        var tokenCount: Int
    }

    /// A window's words, and the median of their durations (capped), the
    /// scale of the clamps that keep attention from stretching a word.
    struct Alignment {
        var words: [AlignedWord] = []
        var medianDuration = 0.0
    }

    /// The longest a word at a sentence or segment edge may last: twice the median.
    static func maxDuration(medianDuration: Double) -> Double { 2 * medianDuration }

    /// Cap on the median word duration: slow or sparse speech does not
    /// make every clamp lenient. ref: whisper/timing.py `add_word_timestamps`
    static let longestMedianDuration = 0.7
    static let sentenceEndMarks: Set<String> = [".", "\u{3002}", "!", "\u{FF01}", "?", "\u{FF1F}"]

    func align(textTokens: [Int], startOfTranscript: [Int], cross: CrossAttentionCache, frameCount: Int,
               language: String) -> Alignment {
        let special = model.tokenizer.specialTokens
        guard !textTokens.isEmpty else { return Alignment() }
        let tokens = startOfTranscript + [special.noTimestamps] + textTokens + [special.endOfText]
        var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
        let heads = model.config.alignmentHeads.compactMap { $0.count == 2 ? (layer: $0[0], head: $0[1]) : nil }
            .filter { $0.layer < model.dimensions.decoderLayerCount && $0.head < model.dimensions.headCount }
        var capture: TextDecoder.AlignmentCapture? = TextDecoder.AlignmentCapture(heads: heads)
        let first = startOfTranscript.count // the <|notimestamps|> position predicts the first text token
        let positions = Array(first..<(tokens.count - 1))
        let logits = model.decoder.decode([tokens], cache: &cache, cross: cross, logitPositions: positions,
                                          capture: &capture)
        let probabilities = textTokenProbabilities(logits, textTokens: textTokens)
        let positionCount = min(cross.positionCount, max(1, frameCount / 2))
        let matrix = alignmentMatrix(capture?.scores ?? [], rows: positions, tokenCount: tokens.count,
                                     totalPositions: cross.positionCount, usedPositions: positionCount)
        let path = Self.dynamicTimeWarping(cost: matrix.map { -$0 }, rows: positions.count, columns: positionCount)

        // Time at which the path first reaches each text row.
        var jumpTimes: [Double] = []
        var previousRow = -1
        for (row, column) in path where row != previousRow {
            jumpTimes.append(Double(column) / Self.positionsPerSecond)
            previousRow = row
        }
        let words = model.tokenizer.splitToWords(textTokens + [special.endOfText], language: language)
        var boundaries = [0]
        for word in words.dropLast() { boundaries.append(boundaries.last! + word.tokens.count) }
        var aligned: [AlignedWord] = []
        for (index, word) in words.dropLast().enumerated() {
            let start = boundaries[index], end = boundaries[index + 1]
            guard start < jumpTimes.count, end < jumpTimes.count, end <= probabilities.count else { continue }
            let probability = probabilities[start..<end].reduce(0, +) / Double(max(1, end - start))
            aligned.append(AlignedWord(timing: WordTiming(word: word.word, startSeconds: jumpTimes[start],
                                                          endSeconds: jumpTimes[end], probability: probability),
                                       tokenCount: end - start))
        }
        let medianDuration = min(Self.longestMedianDuration,
                                 Self.median(aligned.map { $0.timing.endSeconds - $0.timing.startSeconds }.filter { $0 > 0 }))
        Self.truncateAtSentenceEnds(&aligned, maxDuration: Self.maxDuration(medianDuration: medianDuration))
        return Alignment(words: Self.mergingPunctuation(aligned), medianDuration: medianDuration)
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted(), middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Attention can stretch a sentence's closing mark over the pause after
    /// it, or the next sentence's first word back over that pause: either is
    /// cut to `maxDuration` from its other end. Runs before punctuation is
    /// merged, while marks are words of their own.
    /// ref: whisper/timing.py `add_word_timestamps` ("truncate long words at sentence boundaries")
    static func truncateAtSentenceEnds(_ words: inout [AlignedWord], maxDuration: Double) {
        guard maxDuration > 0, words.count > 1 else { return }
        for index in 1..<words.count {
            var timing = words[index].timing
            guard timing.endSeconds - timing.startSeconds > maxDuration else { continue }
            if sentenceEndMarks.contains(timing.word) {
                timing.endSeconds = timing.startSeconds + maxDuration
            } else if sentenceEndMarks.contains(words[index - 1].timing.word) {
                timing.startSeconds = timing.endSeconds - maxDuration
            }
            words[index].timing = timing
        }
    }

    /// One segment's words (times from the window start), clamped where the
    /// alignment stretches them: the alignment path starts at the window's
    /// first frame, so a first word after silence absorbs it; and a last
    /// word can run on into the silence after it. After a pause (its end
    /// more than four median words after `lastSpeech`), a long first word —
    /// or a long second one — keeps `maxDuration`; then a first word starting
    /// over 0.5 s before the decoder's opening timestamp starts there, and a
    /// last word ending over 0.5 s after the closing one ends there (each
    /// keeping at least the median duration).
    /// ref: whisper/timing.py `add_word_timestamps` ("truncate long words at segment boundaries")
    static func clampingEdges(of words: [WordTiming], segmentStart: Double, segmentEnd: Double, lastSpeech: Double,
                              medianDuration: Double) -> [WordTiming] {
        guard !words.isEmpty else { return words }
        var words = words
        let maxDuration = Self.maxDuration(medianDuration: medianDuration)
        func duration(_ index: Int) -> Double { words[index].endSeconds - words[index].startSeconds }
        if words[0].endSeconds - lastSpeech > 4 * medianDuration,
           duration(0) > maxDuration || (words.count > 1 && words[1].endSeconds - words[0].startSeconds > 2 * maxDuration) {
            if words.count > 1, duration(1) > maxDuration {
                let boundary = max(words[0].startSeconds, words[1].endSeconds - maxDuration)
                words[0].endSeconds = boundary
                words[1].startSeconds = boundary
            }
            words[0].startSeconds = max(0, words[0].endSeconds - maxDuration)
        }
        if segmentStart < words[0].endSeconds, segmentStart - 0.5 > words[0].startSeconds {
            words[0].startSeconds = max(0, min(words[0].endSeconds - medianDuration, segmentStart))
        }
        let last = words.count - 1
        if segmentEnd > words[last].startSeconds, segmentEnd + 0.5 < words[last].endSeconds {
            words[last].endSeconds = max(words[last].startSeconds + medianDuration, segmentEnd)
        }
        return words
    }

    static let prependedPunctuation: Set<String> = ["\"", "'", "\u{201C}", "\u{00BF}", "(", "[", "{", "-"]
    static let appendedPunctuation: Set<String> = ["\"", "'", ".", "\u{3002}", ",", "\u{FF0C}", "!", "\u{FF01}", "?",
                                                   "\u{FF1F}", ":", "\u{FF1A}", "\u{201D}", ")", "]", "}", "\u{3001}"]

    /// Attaches opening punctuation to the next word and closing punctuation
    /// to the previous one; emptied words keep no tokens.
    /// ref: whisper/timing.py `merge_punctuations`
    static func mergingPunctuation(_ words: [AlignedWord]) -> [AlignedWord] {
        var words = words
        guard words.count >= 2 else { return words }
        var i = words.count - 2, j = words.count - 1
        while i >= 0 {
            let previous = words[i].timing.word
            if previous.hasPrefix(" "), prependedPunctuation.contains(previous.trimmingCharacters(in: .whitespaces)) {
                words[j].timing.word = previous + words[j].timing.word
                words[j].tokenCount += words[i].tokenCount
                words[i].timing.word = ""
                words[i].tokenCount = 0
            } else {
                j = i
            }
            i -= 1
        }
        i = 0
        j = 1
        while j < words.count {
            if !words[i].timing.word.hasSuffix(" "), appendedPunctuation.contains(words[j].timing.word) {
                words[i].timing.word += words[j].timing.word
                words[i].tokenCount += words[j].tokenCount
                words[j].timing.word = ""
                words[j].tokenCount = 0
            } else {
                i = j
            }
            j += 1
        }
        return words.filter { !$0.timing.word.isEmpty }
    }

    /// Probability of each text token given the ones before it, softmax over text tokens only.
    private func textTokenProbabilities(_ logits: [Float], textTokens: [Int]) -> [Double] {
        let vocabulary = model.dimensions.vocabularySize
        let textCount = model.tokenizer.specialTokens.endOfText
        return textTokens.enumerated().map { row, token in
            logits.withUnsafeBufferPointer { all in
                let lp = LogProbabilities.logSoftmax(UnsafeBufferPointer(rebasing: all[(row * vocabulary)..<(row * vocabulary + textCount)]))
                return Double(expf(lp[token]))
            }
        }
    }

    /// Mean over heads of the standardised, median-filtered attention weights.
    /// It runs for every decoded window with word timestamps (every commit
    /// and volatile pass of a stream), so it walks rows, not columns, and
    /// allocates per head, not per token; sums keep the reference's order.
    /// - Shape: returns `[rows.count, usedPositions]`.
    func alignmentMatrix(_ scores: [[Float]], rows: [Int], tokenCount: Int, totalPositions: Int,
                         usedPositions: Int) -> [Float] {
        var matrix = [Float](repeating: 0, count: rows.count * usedPositions)
        let valid = scores.filter { $0.count == tokenCount * totalPositions }
        guard !valid.isEmpty, tokenCount > 0, usedPositions > 0 else { return matrix }
        let used = usedPositions
        var weights = [Float](repeating: 0, count: tokenCount * used)
        var mean = [Float](repeating: 0, count: used)
        var deviation = [Float](repeating: 0, count: used)
        var filtered = [Float](repeating: 0, count: used)
        let headCount = Float(valid.count)
        for headScores in valid {
            weights.withUnsafeMutableBufferPointer { weights in
                headScores.withUnsafeBufferPointer { scores in
                    // softmax over the real audio positions only, per token
                    for t in 0..<tokenCount {
                        let row = weights.baseAddress! + t * used
                        row.update(from: scores.baseAddress! + t * totalPositions, count: used)
                        Activation.softmax(row, count: used)
                    }
                }
                // standardise each audio position over tokens (ref: std_mean over dim -2)
                mean.withUnsafeMutableBufferPointer { mean in
                    deviation.withUnsafeMutableBufferPointer { deviation in
                        Self.standardizeColumns(weights.baseAddress!, rows: tokenCount, columns: used,
                                                mean: mean.baseAddress!, deviation: deviation.baseAddress!)
                    }
                }
                filtered.withUnsafeMutableBufferPointer { filtered in
                    matrix.withUnsafeMutableBufferPointer { matrix in
                        for (r, t) in rows.enumerated() {
                            Self.medianFilter(UnsafeBufferPointer(start: weights.baseAddress! + t * used, count: used),
                                              width: Self.medianFilterWidth, into: filtered.baseAddress!)
                            let out = matrix.baseAddress! + r * used
                            for p in 0..<used { out[p] += filtered[p] / headCount }
                        }
                    }
                }
            }
        }
        return matrix
    }

    /// `(x - mean) / std` down each column of a `rows × columns` matrix, the
    /// population deviation floored at 1e-10; `mean` and `deviation` are
    /// `columns` long scratch. Each column's sums run over rows in order, as
    /// a column-at-a-time loop would add them.
    static func standardizeColumns(_ values: UnsafeMutablePointer<Float>, rows: Int, columns: Int,
                                   mean: UnsafeMutablePointer<Float>, deviation: UnsafeMutablePointer<Float>) {
        mean.update(repeating: 0, count: columns)
        deviation.update(repeating: 0, count: columns)
        for t in 0..<rows {
            let row = values + t * columns
            for p in 0..<columns { mean[p] += row[p] }
        }
        for p in 0..<columns { mean[p] /= Float(rows) }
        for t in 0..<rows {
            let row = values + t * columns
            for p in 0..<columns { let d = row[p] - mean[p]; deviation[p] += d * d }
        }
        for p in 0..<columns { deviation[p] = max((deviation[p] / Float(rows)).squareRoot(), 1e-10) }
        for t in 0..<rows {
            let row = values + t * columns
            for p in 0..<columns { row[p] = (row[p] - mean[p]) / deviation[p] }
        }
    }

    /// Median filter with reflect padding. ref: whisper/timing.py `median_filter`
    static func medianFilter(_ values: [Float], width: Int) -> [Float] {
        var filtered = values
        values.withUnsafeBufferPointer { values in
            filtered.withUnsafeMutableBufferPointer { medianFilter(values, width: width, into: $0.baseAddress!) }
        }
        return filtered
    }

    /// The median filter into `output` (`values.count` long). The window
    /// stays sorted as it slides: each step takes out the value that left
    /// and inserts the one that came, instead of sorting `width` values again.
    static func medianFilter(_ values: UnsafeBufferPointer<Float>, width: Int, into output: UnsafeMutablePointer<Float>) {
        let count = values.count, pad = width / 2
        guard count > pad, width > 1 else {
            if count > 0 { output.update(from: values.baseAddress!, count: count) }
            return
        }
        func at(_ i: Int) -> Float {
            var j = i
            if j < 0 { j = -j }
            if j >= count { j = 2 * (count - 1) - j }
            return values[j]
        }
        withUnsafeTemporaryAllocation(of: Float.self, capacity: width) { buffer in
            var window = buffer
            for k in 0..<width { window[k] = at(k - pad) }
            window.sort()
            output[0] = window[pad]
            for i in 1..<count {
                // Out goes at(i - pad - 1); in comes at(i + pad). A NaN matches
                // nothing and the last slot goes instead.
                let leaving = at(i - pad - 1), coming = at(i + pad)
                var slot = width - 1
                for k in 0..<width where window[k] == leaving { slot = k; break }
                // Close the gap, then open one where `coming` belongs.
                while slot < width - 1, window[slot + 1] < coming { window[slot] = window[slot + 1]; slot += 1 }
                while slot > 0, window[slot - 1] > coming { window[slot] = window[slot - 1]; slot -= 1 }
                window[slot] = coming
                output[i] = window[pad]
            }
        }
    }

    /// Minimum-cost monotonic path through `cost` (rows × columns), diagonal,
    /// down or right moves. ref: whisper/timing.py `dtw_cpu`, `backtrace`
    static func dynamicTimeWarping(cost: [Float], rows: Int, columns: Int) -> [(row: Int, column: Int)] {
        guard rows > 0, columns > 0 else { return [] }
        let stride = columns + 1
        var total = [Float](repeating: .infinity, count: (rows + 1) * stride)
        var trace = [Int8](repeating: -1, count: (rows + 1) * stride)
        total[0] = 0
        for j in 1...columns {
            for i in 1...rows {
                let c0 = total[(i - 1) * stride + j - 1], c1 = total[(i - 1) * stride + j], c2 = total[i * stride + j - 1]
                let (c, t): (Float, Int8) = (c0 < c1 && c0 < c2) ? (c0, 0) : ((c1 < c0 && c1 < c2) ? (c1, 1) : (c2, 2))
                total[i * stride + j] = cost[(i - 1) * columns + j - 1] + c
                trace[i * stride + j] = t
            }
        }
        for j in 0...columns { trace[j] = 2 }
        for i in 0...rows { trace[i * stride] = 1 }
        var i = rows, j = columns
        var path: [(Int, Int)] = []
        while i > 0 || j > 0 {
            path.append((i - 1, j - 1))
            switch trace[i * stride + j] {
            case 0: i -= 1; j -= 1
            case 1: i -= 1
            default: j -= 1
            }
        }
        return path.reversed().filter { $0.0 >= 0 && $0.1 >= 0 }.map { (row: $0.0, column: $0.1) }
    }
}
