import Foundation

/// One rule applied to a sequence's logits before sampling.
/// - Shape: `logits` has `vocabularySize` entries; `tokens` is the whole
///   sequence so far (prompt included); `sampleBegin` is where sampled tokens start.
struct LogitFilter: Sendable {
    let apply: @Sendable (_ logits: UnsafeMutableBufferPointer<Float>, _ tokens: [Int], _ sampleBegin: Int) -> Void
}

/// The ordered filter chain of Whisper's decoding.
/// ref: whisper/decoding.py `DecodingTask._get_logit_filters`
enum LogitFilters {
    /// Blank and end-of-text may not open a window's text.
    /// ref: whisper/decoding.py `SuppressBlank`
    static func suppressBlank(_ suppressed: [Int]) -> LogitFilter {
        LogitFilter { logits, tokens, sampleBegin in
            guard tokens.count == sampleBegin else { return }
            for token in suppressed where token < logits.count { logits[token] = -.infinity }
        }
    }

    /// Non-speech symbols and task/control tokens are never sampled.
    /// ref: whisper/decoding.py `SuppressTokens`, `_get_suppress_tokens`
    static func suppressTokens(_ suppressed: [Int]) -> LogitFilter {
        LogitFilter { logits, _, _ in
            for token in suppressed where token >= 0 && token < logits.count { logits[token] = -.infinity }
        }
    }

    /// Timestamps come in pairs, never decrease, open the window, and win
    /// when their total probability beats any single text token.
    /// ref: whisper/decoding.py `ApplyTimestampRules`
    static func timestampRules(_ special: SpecialTokens, maxInitialTimestampIndex: Int = 50) -> LogitFilter {
        let timestampBegin = special.timestampBegin
        let endOfText = special.endOfText
        let noTimestamps = special.noTimestamps
        return LogitFilter { logits, tokens, sampleBegin in
            logits[noTimestamps] = -.infinity
            let sampled = tokens[sampleBegin...]
            let lastWasTimestamp = (sampled.last ?? 0) >= timestampBegin
            let penultimateWasTimestamp = sampled.count < 2 || sampled[sampled.endIndex - 2] >= timestampBegin
            if !sampled.isEmpty && lastWasTimestamp {
                if penultimateWasTimestamp {
                    for t in timestampBegin..<logits.count { logits[t] = -.infinity }
                } else {
                    for t in 0..<endOfText { logits[t] = -.infinity }
                }
            }
            if let lastTimestamp = sampled.last(where: { $0 >= timestampBegin }) {
                // Timestamps never decrease; after a closing timestamp, the next must move forward.
                let floor = lastWasTimestamp && !penultimateWasTimestamp ? lastTimestamp : lastTimestamp + 1
                for t in timestampBegin..<min(floor, logits.count) { logits[t] = -.infinity }
            }
            if sampled.isEmpty {
                for t in 0..<timestampBegin { logits[t] = -.infinity }
                let last = timestampBegin + maxInitialTimestampIndex
                if last + 1 < logits.count { for t in (last + 1)..<logits.count { logits[t] = -.infinity } }
            }
            // If the timestamps' total probability exceeds any text token's, sample a timestamp.
            // Compared as logits: both sides of the log-softmax share its normaliser.
            let base = UnsafePointer(logits.baseAddress!)
            let timestampMass = VectorMath.logSumExp(base + timestampBegin, count: logits.count - timestampBegin)
            let bestText = VectorMath.maximum(base, count: timestampBegin)
            if timestampMass > bestText {
                for t in 0..<timestampBegin { logits[t] = -.infinity }
            }
        }
    }

    /// Contextual-phrase biasing: boosts the next token of any phrase whose
    /// beginning the sequence has just produced, and (less) the first token of
    /// each phrase. Works on token sequences, so multi-token names are favoured
    /// as a whole once started. Each token gets the largest applicable boost
    /// once, however many phrases share it (`PhraseBiasTable`).
    static func phraseBias(_ table: PhraseBiasTable, boost: Float) -> LogitFilter {
        LogitFilter { logits, tokens, sampleBegin in
            for (token, amount) in table.boosts(after: tokens[sampleBegin...], boost: boost)
            where token >= 0 && token < logits.count && logits[token] > -.infinity {
                logits[token] += amount
            }
        }
    }
}

enum LogProbabilities {
    static func logSoftmax(_ logits: UnsafeBufferPointer<Float>) -> [Float] {
        let logSum = VectorMath.logSumExp(logits.baseAddress!, count: logits.count)
        return logits.map { $0 - logSum }
    }
}
