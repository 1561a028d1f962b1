import Foundation
import SpeechEngine

/// A `volatile` or `final` event's data: the recognizer's hypothesis as it
/// is (stream-time seconds, text, words with times and probabilities).
struct StreamEventSpan: Encodable {
    struct Word: Encodable {
        var word: String
        var start: Double
        var end: Double
        var probability: Double
    }

    var start: Double
    var end: Double
    var text: String
    var words: [Word]

    init(_ hypothesis: StreamingHypothesis) {
        start = TranscriptionResponse.rounded(hypothesis.startSeconds)
        end = TranscriptionResponse.rounded(hypothesis.endSeconds)
        text = hypothesis.text
        words = hypothesis.words.map {
            Word(word: $0.word.trimmingCharacters(in: .whitespaces), start: TranscriptionResponse.rounded($0.startSeconds),
                 end: TranscriptionResponse.rounded($0.endSeconds), probability: TranscriptionResponse.rounded($0.probability))
        }
    }
}

/// The `done` event's data: every final's text joined, and the audio's length.
struct StreamDoneEvent: Encodable {
    var text: String
    var duration: Double
}

/// The `error` event's data: OpenAI's error shape plus the text committed
/// before the stream ended, which stays valid.
struct StreamErrorEvent: Encodable {
    struct Detail: Encodable {
        var message: String
        var type: String
        var code: String
    }

    var error: Detail
    var text: String

    init(_ error: ServiceError, text: String) {
        self.error = Detail(message: error.message, type: error.kind.type, code: error.code)
        self.text = text
    }
}

/// `GET /v1/audio/streams/ID` and the audio POST's answer.
struct LiveStreamStatus: Encodable, Sendable {
    var object = "audio.stream"
    var id: String
    var state: String
    var receivedSeconds: Double
    var sampleRate: Int
    var channels: Int
    var encoding: String

    init(id: String, state: String, receivedSeconds: Double, sampleRate: Int, channels: Int, encoding: String) {
        self.id = id
        self.state = state
        self.receivedSeconds = receivedSeconds
        self.sampleRate = sampleRate
        self.channels = channels
        self.encoding = encoding
    }

    enum CodingKeys: String, CodingKey {
        case object, id, state, encoding, channels
        case receivedSeconds = "received_seconds", sampleRate = "sample_rate"
    }
}

/// `POST /v1/audio/streams`'s answer (201): the stream's URLs and limits.
struct LiveStreamCreated: Encodable {
    var object = "audio.stream"
    var id: String
    var encoding: String
    var sampleRate: Int
    var channels: Int
    var audioURL: String
    var eventsURL: String
    var maxSeconds: Double
    var idleTimeoutSeconds: Double

    enum CodingKeys: String, CodingKey {
        case object, id, encoding, channels
        case sampleRate = "sample_rate", audioURL = "audio_url", eventsURL = "events_url"
        case maxSeconds = "max_seconds", idleTimeoutSeconds = "idle_timeout_seconds"
    }
}
