import Foundation

/// What one recognition path produced for one audio file, in a form both
/// faces map to: the transcript, its timed words, the alternatives and the
/// order of the events the app saw.
///
/// Outcomes are what comparisons, suites and goldens work on. They are
/// `Codable` (a golden file is an outcome written as JSON) and contain no
/// wall-clock values, so the same audio and settings give the same outcome.
public struct RecognitionOutcome: Codable, Sendable, Hashable {
    /// The path that produced it.
    public var path: RecognitionPath
    /// The final transcript (words joined as the face formatted them).
    public var transcript: String
    /// The final transcript's words, in spoken order.
    public var words: [TimedWord]
    /// Other complete transcripts, most likely first (may be empty).
    public var alternatives: [String]
    /// The events the app received, in order, with repeats of the same event
    /// collapsed into one (partial results arrive a varying number of times).
    public var events: [String]
    /// The error that ended recognition, if any (e.g. `kAFAssistantErrorDomain 1110`).
    public var error: String?
    /// That error's message, for people (`speech compare` shows it). Not
    /// written to golden files, whose errors are compared by domain and code.
    public var errorDescription: String?

    /// Whether recognition failed: an error other than hearing no speech
    /// (`kAFAssistantErrorDomain 1110`, an answer about the audio).
    public var failed: Bool { error != nil && error != "kAFAssistantErrorDomain 1110" }

    private enum CodingKeys: String, CodingKey {
        case path, transcript, words, alternatives, events, error
    }

    /// Creates an outcome.
    public init(path: RecognitionPath, transcript: String, words: [TimedWord], alternatives: [String] = [],
                events: [String], error: String? = nil, errorDescription: String? = nil) {
        self.path = path
        self.transcript = transcript
        self.words = words
        self.alternatives = alternatives
        self.events = Self.collapsingRepeats(events)
        self.error = error
        self.errorDescription = errorDescription
    }

    /// `events` with runs of one event reduced to a single entry.
    public static func collapsingRepeats(_ events: [String]) -> [String] {
        var collapsed: [String] = []
        for event in events where event != collapsed.last { collapsed.append(event) }
        return collapsed
    }

    /// The outcome as pretty-printed JSON with sorted keys (byte-stable).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads an outcome written by `jsonData()`.
    /// - Throws: `MigrationError` (`.invalidSuite`) when the file is missing or malformed.
    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw MigrationError(.invalidSuite, "The golden file \(url.path) cannot be read; record it with "
                                 + "`speech record-golden`.", underlying: error)
        }
        do {
            self = try JSONDecoder().decode(RecognitionOutcome.self, from: data)
        } catch {
            throw MigrationError(.invalidSuite, "The golden file \(url.path) is not a recorded outcome; record it "
                                 + "again with `speech record-golden`.", underlying: error)
        }
    }
}
