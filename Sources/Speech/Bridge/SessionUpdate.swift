import Foundation
internal import SpeechEngine

/// A recognised word as the faces see it: text, stream times, confidence.
package struct RecognizedWord: Sendable, Hashable {
    /// The word as the model wrote it, with its leading space if it had one.
    package var text: String
    /// Start, seconds of stream time.
    package var startSeconds: Double
    /// End, seconds of stream time.
    package var endSeconds: Double
    /// Confidence in [0, 1].
    package var confidence: Double

    package init(text: String, startSeconds: Double, endSeconds: Double, confidence: Double) {
        self.text = text
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.confidence = confidence
    }
}

/// A stretch of transcript over a range of stream time: volatile (may still
/// change) or final (committed once).
package struct RecognizedSpan: Sendable, Hashable {
    /// Start of the range, seconds of stream time.
    package var startSeconds: Double
    /// End of the range, seconds of stream time.
    package var endSeconds: Double
    /// The range's text, without leading space.
    package var text: String
    /// Timed words (may be empty when word timing was not asked for).
    package var words: [RecognizedWord]
    /// N-best alternatives of the range's text, best first: text and score
    /// (a length-normalised log-probability).
    package var alternatives: [(text: String, score: Double)]

    package init(startSeconds: Double, endSeconds: Double, text: String, words: [RecognizedWord] = [],
                 alternatives: [(text: String, score: Double)] = []) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.text = text
        self.words = words
        self.alternatives = alternatives
    }

    package static func == (lhs: RecognizedSpan, rhs: RecognizedSpan) -> Bool {
        lhs.startSeconds == rhs.startSeconds && lhs.endSeconds == rhs.endSeconds && lhs.text == rhs.text
            && lhs.words == rhs.words && lhs.alternatives.map(\.text) == rhs.alternatives.map(\.text)
            && lhs.alternatives.map(\.score) == rhs.alternatives.map(\.score)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(startSeconds)
        hasher.combine(text)
    }
}

/// What a recognition session reports, in order: the faces map these to
/// their results. Same contract as the engine's stream (finals disjoint and
/// increasing, a volatile replacing the one before, `committed` never
/// decreasing, one terminal `finished` or `failed`).
package enum SessionUpdate: Sendable {
    /// Speech started at this stream time.
    case speechStarted(atSeconds: Double)
    /// Speech ended at this stream time.
    case speechEnded(atSeconds: Double)
    /// The current guess after the last final range.
    case volatile(RecognizedSpan)
    /// A committed range of transcript.
    case final(RecognizedSpan)
    /// Every result before this stream time has been delivered as final.
    case committed(throughSeconds: Double)
    /// Audio processed so far, seconds of stream time.
    case progress(processedSeconds: Double)
    /// All audio recognized; every final delivered.
    case finished
    /// Recognition stopped; finals delivered before stand. Map with
    /// `ErrorMapping.legacyError(forAny:)` or `speechError(forAny:)`.
    case failed(any Error)

    /// Whether this is a failure by cancellation.
    package var isCancellation: Bool {
        guard case .failed(let error) = self else { return false }
        return (error as? EngineError)?.code == .cancelled || error is CancellationError
    }
}

extension SessionUpdate {
    /// The engine's event in the faces' terms.
    init(_ event: StreamingEvent) {
        switch event {
        case .speechDetected(let seconds): self = .speechStarted(atSeconds: seconds)
        case .speechEnded(let seconds): self = .speechEnded(atSeconds: seconds)
        case .volatile(let hypothesis): self = .volatile(RecognizedSpan(hypothesis))
        case .final(let hypothesis): self = .final(RecognizedSpan(hypothesis))
        case .committed(let seconds): self = .committed(throughSeconds: seconds)
        case .progress(let seconds): self = .progress(processedSeconds: seconds)
        case .finished: self = .finished
        case .failed(let error): self = .failed(error)
        }
    }
}

extension RecognizedSpan {
    /// The engine's hypothesis in the faces' terms.
    init(_ hypothesis: StreamingHypothesis) {
        self.init(startSeconds: hypothesis.startSeconds, endSeconds: hypothesis.endSeconds, text: hypothesis.text,
                  words: hypothesis.words.map(RecognizedWord.init),
                  alternatives: hypothesis.alternatives.map { (text: $0.text, score: $0.score) })
    }
}

extension RecognizedWord {
    /// The engine's word in the faces' terms.
    init(_ word: WordTiming) {
        self.init(text: word.word, startSeconds: word.startSeconds, endSeconds: word.endSeconds,
                  confidence: word.probability)
    }
}
