import Foundation

/// One recognised word with its timing and confidence.
public struct WordTiming: Sendable, Hashable, Codable {
    /// The word as the model wrote it, with its leading space if it had one
    /// (Whisper tokens carry the space before a word).
    public var word: String
    /// Start in seconds from the start of the audio.
    public var startSeconds: Double
    /// End in seconds from the start of the audio.
    public var endSeconds: Double
    /// Confidence in (0, 1]: the mean probability of the word's tokens.
    public var probability: Double

    public init(word: String, startSeconds: Double, endSeconds: Double, probability: Double) {
        self.word = word
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.probability = probability
    }

    /// The word with its times moved by `seconds` (from one time origin to another).
    func shifted(by seconds: Double) -> WordTiming {
        var word = self
        word.startSeconds += seconds
        word.endSeconds += seconds
        return word
    }
}

/// A stretch of transcript between two timestamp tokens.
public struct Segment: Sendable, Hashable, Codable {
    public var id: Int
    /// Start in seconds from the start of the audio.
    public var startSeconds: Double
    /// End in seconds from the start of the audio.
    public var endSeconds: Double
    public var text: String
    /// Text tokens (no special or timestamp tokens).
    public var tokens: [Int]
    /// Words with times; empty unless word timestamps were asked for.
    public var words: [WordTiming]
    public var averageLogProbability: Double
    public var noSpeechProbability: Double
    public var compressionRatio: Double
    /// The sampling temperature the window was finally decoded at.
    public var temperature: Double

    public init(id: Int, startSeconds: Double, endSeconds: Double, text: String, tokens: [Int],
                words: [WordTiming], averageLogProbability: Double, noSpeechProbability: Double,
                compressionRatio: Double, temperature: Double) {
        self.id = id
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.text = text
        self.tokens = tokens
        self.words = words
        self.averageLogProbability = averageLogProbability
        self.noSpeechProbability = noSpeechProbability
        self.compressionRatio = compressionRatio
        self.temperature = temperature
    }

    /// The segment and its words with their times moved by `seconds`.
    func shifted(by seconds: Double) -> Segment {
        var segment = self
        segment.startSeconds += seconds
        segment.endSeconds += seconds
        segment.words = words.map { $0.shifted(by: seconds) }
        return segment
    }
}

/// An n-best alternative for a whole transcript, from the beam.
public struct Alternative: Sendable, Hashable, Codable {
    public var text: String
    /// Sum of token log-probabilities, length-normalised as the beam ranked it.
    public var score: Double

    public init(text: String, score: Double) {
        self.text = text
        self.score = score
    }
}

/// The result of transcribing one piece of audio.
public struct Transcript: Sendable, Hashable, Codable {
    public var segments: [Segment]
    /// ISO 639-1 code of the language decoded (detected or given).
    public var language: String
    /// Probability of `language` from language detection (1 when it was given).
    public var languageProbability: Double
    /// Duration of the audio in seconds.
    public var durationSeconds: Double
    /// Whole-transcript alternatives, best first (the first equals `text`).
    public var alternatives: [Alternative]

    public init(segments: [Segment], language: String, languageProbability: Double,
                durationSeconds: Double, alternatives: [Alternative] = []) {
        self.segments = segments
        self.language = language
        self.languageProbability = languageProbability
        self.durationSeconds = durationSeconds
        self.alternatives = alternatives
    }

    /// The whole transcript: segment texts joined, trimmed.
    public var text: String {
        segments.map(\.text).joined().trimmingCharacters(in: .whitespaces)
    }

    /// All words of all segments, in order.
    public var words: [WordTiming] { segments.flatMap(\.words) }
}
