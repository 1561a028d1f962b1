import CoreMedia
import Foundation

/// An engine hypothesis mapped to the modern face: what a transcriber result
/// is made of, before it takes its module's `Result` type.
struct ModernTranscription: Sendable, Hashable {
    /// The audio the text covers, on the analyzer's timeline.
    var range: CMTimeRange
    /// Results are final up to this time.
    var finalizationTime: CMTime
    /// Best transcription first; may be empty for "no speech" / revocation.
    var alternatives: [AttributedString]
}

/// A detection mapped to the modern face: whether a range holds speech.
struct ModernDetection: Sendable, Hashable {
    /// The audio the verdict covers, on the analyzer's timeline.
    var range: CMTimeRange
    /// Detections are final up to this time.
    var finalizationTime: CMTime
    /// Whether the range holds speech.
    var speechDetected: Bool
}

/// Turns engine events into the modern face's results: times on the
/// analyzer's timeline, attributed text with per-word attributes, alternatives,
/// and the text options (punctuation, emoji, etiquette).
enum ModernResultMapping {
    /// Timescale of the times the modern face publishes (the engine's rate).
    static let timescale = CMTimeScale(BufferConversion.outputRate)

    /// A time `seconds` after `base` on the analyzer's timeline.
    static func time(_ seconds: Double, after base: CMTime) -> CMTime {
        base + CMTime(seconds: max(0, seconds), preferredTimescale: timescale)
    }

    /// The analyzer-timeline range of a hypothesis from a session starting at `base`.
    static func range(of hypothesis: RecognizedSpan, base: CMTime) -> CMTimeRange {
        let start = time(hypothesis.startSeconds, after: base)
        let end = time(max(hypothesis.startSeconds, hypothesis.endSeconds), after: base)
        return CMTimeRange(start: start, end: end)
    }

    /// The attributed alternatives of a hypothesis, best first.
    ///
    /// - Parameters:
    ///   - continuesText: whether text was published before this range, so the
    ///     phrase keeps the space that separates it from earlier text.
    static func alternatives(of hypothesis: RecognizedSpan, base: CMTime,
                             settings: TranscriberSettings, continuesText: Bool) -> [AttributedString] {
        let best = attributedText(of: hypothesis, base: base, settings: settings, continuesText: continuesText)
        guard settings.reportsAlternatives else { return [best] }
        var seen: Set<String> = [String(best.characters)]
        var result = [best]
        for alternative in hypothesis.alternatives {
            let text = spaced(filtered(alternative.text, settings: settings), continuesText: continuesText)
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty, seen.insert(text).inserted else { continue }
            var attributed = AttributedString(text)
            if settings.attributesTimeRanges { attributed.audioTimeRange = range(of: hypothesis, base: base) }
            result.append(attributed)
        }
        return result
    }

    /// The best text of a hypothesis: one run per word when word attributes
    /// were asked for and the engine gave words, otherwise one run.
    static func attributedText(of hypothesis: RecognizedSpan, base: CMTime,
                               settings: TranscriberSettings, continuesText: Bool) -> AttributedString {
        let wantsWordRuns = settings.attributesTimeRanges || settings.attributesConfidence
        guard wantsWordRuns, !hypothesis.words.isEmpty else {
            let text = spaced(filtered(hypothesis.text, settings: settings), continuesText: continuesText)
            var attributed = AttributedString(text)
            if settings.attributesTimeRanges, !text.isEmpty {
                attributed.audioTimeRange = range(of: hypothesis, base: base)
            }
            return attributed
        }
        var result = AttributedString()
        for (index, word) in hypothesis.words.enumerated() {
            var piece = filtered(word.text, settings: settings)
            if index == 0 { piece = spaced(piece, continuesText: continuesText) }
            guard !piece.isEmpty else { continue }
            var run = AttributedString(piece)
            if settings.attributesTimeRanges {
                run.audioTimeRange = CMTimeRange(start: time(word.startSeconds, after: base),
                                                 end: time(max(word.startSeconds, word.endSeconds), after: base))
            }
            if settings.attributesConfidence {
                run.transcriptionConfidence = min(1, max(Double.leastNonzeroMagnitude, word.confidence))
            }
            result += run
        }
        return result
    }

    /// `text` with exactly one leading space when it continues earlier text,
    /// none otherwise.
    static func spaced(_ text: String, continuesText: Bool) -> String {
        let trimmed = String(text.drop { $0 == " " })
        return continuesText && !trimmed.isEmpty ? " " + trimmed : trimmed
    }

    /// `text` with the transcriber's text options applied.
    static func filtered(_ text: String, settings: TranscriberSettings) -> String {
        var text = text
        if settings.convertsEmoji { text = TranscriptTextOptions.replacingEmojiNames(in: text) }
        if settings.masksExpletives { text = TranscriptTextOptions.maskingExpletives(in: text) }
        return text
    }
}
