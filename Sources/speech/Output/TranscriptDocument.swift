import Foundation

import SpeechEngine

/// The JSON shape of one transcribed file (`speech transcribe --format json`).
struct TranscriptDocument: Encodable, Sendable {
    struct SegmentDocument: Encodable, Sendable {
        var id: Int
        var start: Double
        var end: Double
        var text: String
        var averageLogProbability: Double
        var noSpeechProbability: Double
        var compressionRatio: Double
        var temperature: Double
        var words: [WordDocument]?
    }

    struct WordDocument: Encodable, Sendable {
        var word: String
        var start: Double
        var end: Double
        var probability: Double
    }

    var file: String
    var text: String
    var language: String
    var languageProbability: Double
    var duration: Double
    var segments: [SegmentDocument]
    var alternatives: [Alternative]

    init(_ transcript: Transcript, path: String, includesWords: Bool) {
        file = path
        text = transcript.text
        language = transcript.language
        languageProbability = transcript.languageProbability
        duration = transcript.durationSeconds
        alternatives = transcript.alternatives
        segments = transcript.segments.map { segment in
            SegmentDocument(
                id: segment.id, start: segment.startSeconds, end: segment.endSeconds,
                text: segment.text.trimmingCharacters(in: .whitespaces),
                averageLogProbability: segment.averageLogProbability,
                noSpeechProbability: segment.noSpeechProbability,
                compressionRatio: segment.compressionRatio, temperature: segment.temperature,
                words: includesWords ? segment.words.map {
                    WordDocument(word: $0.word.trimmingCharacters(in: .whitespaces), start: $0.startSeconds,
                                 end: $0.endSeconds, probability: $0.probability)
                } : nil)
        }
    }
}
