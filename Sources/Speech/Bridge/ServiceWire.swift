import Foundation
#if canImport(Glibc)
import Glibc
#endif
internal import SpeechEngine

/// The framed protocol between a face's `ServiceBackend` and `speech serve`
/// over a unix socket: the `RecognitionBackend` verbs in, `SessionUpdate`s out.
///
/// A frame is a 4-byte big-endian length, a kind byte and a payload of
/// length - 1 bytes. Samples travel as little-endian Float32, times as
/// little-endian Float64 bit patterns, and the open request, updates and
/// errors as JSON. One connection is one session: open, ready (or
/// rejected), verbs and updates, then the service closes it after the
/// terminal update. Either side going away ends only that session.
package enum ServiceWire {
    /// What a frame carries.
    package enum Kind: UInt8, Sendable {
        // Face to service.
        case open = 1, append = 2, gap = 3, recordingChunk = 4, recordingEnd = 5, commit = 6, finish = 7, cancel = 8
        // Service to face.
        case ready = 32, rejected = 33, update = 34
    }

    /// Largest frame either side accepts (a recording travels in chunks below it).
    static let maximumFrameBytes = 64 * 1024 * 1024
    /// Samples per recording chunk frame.
    static let recordingChunkSamples = 1 << 20

    /// What a face asks for when it opens a session.
    struct OpenRequest: Codable {
        var locale: String
        var phrases: [String]
        var languageModel: String?
        var vocabulary: String?
        var languageModelWeight: Double?
        var addsPunctuation: Bool
        var reportsVolatileResults: Bool
        var prefersLowLatency: Bool
        var alternativeCount: Int
        var wordTimestamps: Bool
        var noSpeechThreshold: Double?

        init(locale: Locale, configuration c: RecognitionConfiguration) {
            self.locale = locale.identifier
            phrases = c.phrases
            languageModel = c.customLanguageModel?.languageModel.path
            vocabulary = c.customLanguageModel?.vocabulary?.path
            languageModelWeight = c.customLanguageModel?.weight
            addsPunctuation = c.addsPunctuation
            reportsVolatileResults = c.reportsVolatileResults
            prefersLowLatency = c.prefersLowLatency
            alternativeCount = c.alternativeCount
            wordTimestamps = c.wordTimestamps
            noSpeechThreshold = c.noSpeechThreshold
        }

        var configuration: RecognitionConfiguration {
            var c = RecognitionConfiguration()
            c.phrases = phrases
            if let languageModel {
                c.customLanguageModel = .init(languageModel: URL(fileURLWithPath: languageModel),
                                              vocabulary: vocabulary.map { URL(fileURLWithPath: $0) },
                                              weight: languageModelWeight ?? 0.5)
            }
            c.addsPunctuation = addsPunctuation
            c.reportsVolatileResults = reportsVolatileResults
            c.prefersLowLatency = prefersLowLatency
            c.alternativeCount = alternativeCount
            c.wordTimestamps = wordTimestamps
            c.noSpeechThreshold = noSpeechThreshold
            return c
        }
    }

    /// An error crossing the socket: the engine's code and message, so the
    /// face maps it exactly as it maps an in-process one.
    struct WireError: Codable {
        /// `EngineError.Code`'s name, `cancellation` for `CancellationError`, or `service`.
        var code: String
        var message: String

        init(code: String, message: String) {
            self.code = code
            self.message = message
        }

        init(_ error: any Error) {
            if let engineError = error as? EngineError {
                self.init(code: engineError.code.description, message: engineError.message)
            } else if error is CancellationError {
                self.init(code: "cancellation", message: "Cancelled.")
            } else {
                self.init(code: "service", message: "\(error)")
            }
        }

        /// The error as the face would have seen it in process.
        var error: any Error {
            if code == "cancellation" { return CancellationError() }
            if code == "busy" { return ServiceBackendError(.busy, message) }
            if let engineCode = Self.engineCodes.first(where: { $0.description == code }) {
                return EngineError(engineCode, message)
            }
            return ServiceBackendError(.remoteFailure, message)
        }

        private static let engineCodes: [EngineError.Code] = [
            .modelNotFound, .invalidModelFile, .unsupportedAudioFormat, .unreadableAudio, .unsupportedLanguage,
            .cancelled, .internalInconsistency, .assetInstallFailed, .invalidArgument, .audioDeviceUnavailable,
        ]
    }

    /// A recognised span on the wire.
    struct WireSpan: Codable {
        struct Word: Codable {
            var text: String
            var start: Double
            var end: Double
            var confidence: Double
        }
        struct Alternative: Codable {
            var text: String
            var score: Double
        }
        var start: Double
        var end: Double
        var text: String
        var words: [Word]
        var alternatives: [Alternative]

        init(_ span: RecognizedSpan) {
            start = span.startSeconds
            end = span.endSeconds
            text = span.text
            words = span.words.map { Word(text: $0.text, start: $0.startSeconds, end: $0.endSeconds, confidence: $0.confidence) }
            alternatives = span.alternatives.map { Alternative(text: $0.text, score: $0.score) }
        }

        var span: RecognizedSpan {
            RecognizedSpan(startSeconds: start, endSeconds: end, text: text,
                           words: words.map { RecognizedWord(text: $0.text, startSeconds: $0.start,
                                                             endSeconds: $0.end, confidence: $0.confidence) },
                           alternatives: alternatives.map { (text: $0.text, score: $0.score) })
        }
    }

    /// A `SessionUpdate` on the wire: one case name and its value.
    struct WireUpdate: Codable {
        var kind: String
        var seconds: Double?
        var span: WireSpan?
        var error: WireError?

        init(_ update: SessionUpdate) {
            switch update {
            case .speechStarted(let at): kind = "speechStarted"; seconds = at
            case .speechEnded(let at): kind = "speechEnded"; seconds = at
            case .volatile(let value): kind = "volatile"; span = WireSpan(value)
            case .final(let value): kind = "final"; span = WireSpan(value)
            case .committed(let through): kind = "committed"; seconds = through
            case .progress(let processed): kind = "progress"; seconds = processed
            case .finished: kind = "finished"
            case .failed(let failure): kind = "failed"; error = WireError(failure)
            }
        }

        /// The update, or nil when the frame is not one this side knows.
        var update: SessionUpdate? {
            switch kind {
            case "speechStarted": seconds.map { .speechStarted(atSeconds: $0) }
            case "speechEnded": seconds.map { .speechEnded(atSeconds: $0) }
            case "volatile": span.map { .volatile($0.span) }
            case "final": span.map { .final($0.span) }
            case "committed": seconds.map { .committed(throughSeconds: $0) }
            case "progress": seconds.map { .progress(processedSeconds: $0) }
            case "finished": .finished
            case "failed": error.map { .failed($0.error) }
            default: nil
            }
        }
    }

    static func encodeJSON(_ value: some Encodable) -> Data {
        (try? JSONEncoder().encode(value)) ?? Data()
    }

    static func samplesPayload(_ samples: ArraySlice<Float>) -> Data {
        var data = Data(capacity: samples.count * 4)
        for sample in samples { withUnsafeBytes(of: sample.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    static func samples(from payload: Data) -> [Float] {
        let count = payload.count / 4
        return payload.withUnsafeBytes { bytes in
            (0..<count).map { Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }

    static func secondsPayload(_ seconds: Double) -> Data {
        withUnsafeBytes(of: seconds.bitPattern.littleEndian) { Data($0) }
    }

    static func seconds(from payload: Data) -> Double? {
        guard payload.count == 8 else { return nil }
        return Double(bitPattern: UInt64(littleEndian: payload.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
    }
}
