import Foundation
import SpeechEngine

/// The live streaming endpoint, as a resource per stream:
///
///     POST   /v1/audio/streams               create (encoding, sample_rate, channels, language, prompt) → 201
///     POST   /v1/audio/streams/ID/audio      (or PUT) raw audio bytes, any number of requests, fed as they arrive;
///                                            ?finish=true ends the audio with this request
///     POST   /v1/audio/streams/ID/finish     no more audio: last finals, then `done`
///     GET    /v1/audio/streams/ID/events     server-sent events from the first (or after Last-Event-ID)
///     GET    /v1/audio/streams/ID            state and audio received
///     DELETE /v1/audio/streams/ID            cancel: an `error` event with code `cancelled`
///
/// Why a resource and not one request: libmicrohttpd answers a request only
/// once its body is in, so one connection cannot carry audio up and events
/// down at the same time; two requests can, and any HTTP client (curl, a
/// browser's EventSource, Python's requests) can make them.
extension RecognitionService {
    static let streamsPath = "/v1/audio/streams"

    /// The pieces of a path under `/v1/audio/streams`: [] for the collection,
    /// [id] or [id, verb]; nil for other paths.
    static func streamPath(_ path: String) -> [String]? {
        guard path == streamsPath || path.hasPrefix(streamsPath + "/") else { return nil }
        let rest = path.dropFirst(streamsPath.count).split(separator: "/").map(String.init)
        return rest.count <= 2 ? rest : nil
    }

    /// Audio POSTs are taken as they arrive; everything else as a form.
    func bodyHandling(for request: HTTPRequest) -> BodyHandling {
        guard request.method == "POST" || request.method == "PUT", let parts = Self.streamPath(request.path), parts.count == 2,
              parts[1] == "audio" else { return .form }
        do throws(ServiceError) {
            let stream = try streams.stream(parts[0])
            try stream.beginReceiving()
            return .receive(LiveStreamAudioReceiver(stream: stream, finishing: Self.flag(request.query["finish"])))
        } catch {
            return .refuse(error)
        }
    }

    /// Answers the stream routes other than the audio POST.
    func respondToStream(_ request: HTTPRequest, parts: [String]) -> HTTPResponse {
        do {
            switch (request.method, parts.count, parts.last) {
            case ("POST", 0, _):
                return try createStream(request)
            case ("GET", 1, _):
                return .json(try streams.stream(parts[0]).status)
            case ("DELETE", 1, _):
                let stream = try streams.stream(parts[0])
                stream.cancel()
                return .json(stream.status)
            case ("GET", 2, "events"):
                let stream = try streams.stream(parts[0])
                let events = ResponseStream(keepAliveSeconds: keepAliveSeconds)
                stream.follow(into: events, after: request.headers["last-event-id"].flatMap(Int.init) ?? 0)
                return HTTPResponse(status: 200, contentType: "text/event-stream", body: .stream(events))
            case ("POST", 2, "finish"):
                let stream = try streams.stream(parts[0])
                stream.finish()
                return .json(stream.status)
            case (_, 2, "audio"), (_, 2, "events"), (_, 2, "finish"), (_, 0, _), (_, 1, _):
                return .error(ServiceError(.methodNotAllowed, code: "method_not_allowed",
                                           "\(request.method) is not allowed on \(request.path)."))
            default:
                return .error(ServiceError(.notFound, code: "not_found",
                                           "No endpoint \(request.path); a stream has …/audio, …/events and …/finish."))
            }
        } catch let error as ServiceError {
            return .error(error)
        } catch {
            return .error(ServiceError(.server, code: "internal_error", "\(error)"))
        }
    }

    private func createStream(_ request: HTTPRequest) throws -> HTTPResponse {
        let encodingName = request.parameter("encoding") ?? "s16le"
        guard let encoding = PCMStreamDecoder.Encoding(rawValue: encodingName) else {
            throw ServiceError(.invalidRequest, code: "invalid_encoding",
                               "Unknown encoding '\(encodingName)'; use s16le, f32le or wav.", parameter: "encoding")
        }
        let sampleRate = try Self.integer(request, "sample_rate", default: 16_000)
        let channels = try Self.integer(request, "channels", default: 1)
        let decoder = try PCMStreamDecoder(encoding: encoding, sampleRate: sampleRate, channelCount: channels)
        if let model = request.parameter("model"), !model.isEmpty,
           !TranscriptionRequest.acceptedModels(loaded: configuration.modelName).contains(model) {
            throw ServiceError(.invalidRequest, code: "model_not_found",
                               "This service serves '\(configuration.modelName)' (also accepted as 'whisper-1'), not '\(model)'.",
                               parameter: "model")
        }
        var options = StreamingOptions()
        options.transcription.language = try TranscriptionRequest.language(
            request.parameter("language"), englishOnly: configuration.isEnglishOnly, model: configuration.modelName)
        options.transcription.initialPrompt = request.parameter("prompt").flatMap { $0.isEmpty ? nil : $0 }
        let transcriber = try self.transcriber()
        let registry = streams
        let maxSeconds = configuration.maxStreamSeconds
        let stream = try streams.create { id in
            LiveStream(id: id, decoder: decoder, transcriber: transcriber, options: options, maxSeconds: maxSeconds) { _ in
                AllocatorTuning.releaseFreeMemory()
                registry.streamEnded()
            }
        }
        let base = Self.streamsPath + "/" + stream.id
        var response = HTTPResponse.json(LiveStreamCreated(id: stream.id, encoding: encoding.rawValue,
                                                           sampleRate: sampleRate, channels: channels,
                                                           audioURL: base + "/audio", eventsURL: base + "/events",
                                                           maxSeconds: maxSeconds,
                                                           idleTimeoutSeconds: configuration.streamIdleTimeoutSeconds),
                                         status: 201)
        response.headers.append((name: "Location", value: base))
        return response
    }

    private static func integer(_ request: HTTPRequest, _ name: String, default value: Int) throws(ServiceError) -> Int {
        guard let text = request.parameter(name), !text.isEmpty else { return value }
        guard let number = Int(text) else {
            throw ServiceError(.invalidRequest, code: "invalid_\(name)", "\(name) must be a whole number, not '\(text)'.",
                               parameter: name)
        }
        return number
    }

    static func flag(_ text: String?) -> Bool {
        text == "true" || text == "1"
    }
}

/// One audio POST's body, fed to its stream as it arrives.
final class LiveStreamAudioReceiver: BodyReceiver, @unchecked Sendable {
    // Called only on the request's connection thread, one call at a time.
    private let stream: LiveStream
    private let finishing: Bool
    private var failure: ServiceError?

    init(stream: LiveStream, finishing: Bool) {
        self.stream = stream
        self.finishing = finishing
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        failure = stream.receive(bytes)
        return failure == nil
    }

    func abandon() {
        // The idle timeout finalizes the stream if the client does not come back.
        stream.endReceiving(finishing: false)
    }

    func finish() -> HTTPResponse {
        stream.endReceiving(finishing: finishing)
        if let failure { return .error(failure) }
        return .json(stream.status)
    }
}
