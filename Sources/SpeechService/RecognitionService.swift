import Foundation
import SpeechEngine

/// `speech serve`'s service: one loaded model behind an OpenAI-compatible
/// HTTP endpoint and, optionally, a unix socket for the Speech faces.
///
/// Requests run on a bounded `WorkQueue`; uploads stream to temporary files;
/// every refusal is a JSON error with a status (400, 404, 405, 413, 503).
public final class RecognitionService: @unchecked Sendable {
    // `http`, `faces` and `port` are set in `start` and read after it;
    // `start` and `shutdown` are called from one thread (the CLI's, a test's).

    /// What the service was started with.
    public let configuration: ServiceConfiguration
    let queue: WorkQueue
    /// Live streams (`/v1/audio/streams`).
    let streams: LiveStreamRegistry
    private let models: ModelHolder
    private var http: HTTPServer?
    private var faces: FaceSocketListener?
    /// The HTTP port bound (the chosen one when configured with 0).
    public private(set) var port: UInt16 = 0

    /// A service over the model `loadModel` returns (called once, at the
    /// first request or by `loadModel()`).
    public init(configuration: ServiceConfiguration, loadModel: @escaping @Sendable () throws -> Transcriber) {
        self.configuration = configuration
        queue = WorkQueue(workerCount: configuration.workerCount, waitingLimit: configuration.maxQueue)
        streams = LiveStreamRegistry(maxStreams: configuration.maxStreams,
                                     idleTimeoutSeconds: configuration.streamIdleTimeoutSeconds)
        models = ModelHolder(load: loadModel)
    }

    /// Loads the model now, so that a bad model fails the start, not the first request.
    public func loadModel() throws {
        _ = try models.transcriber()
    }

    /// Starts listening (HTTP, then the socket when configured).
    /// - Throws: `ServeError` when an address or path cannot be bound.
    public func start() throws {
        AllocatorTuning.apply(for: .service)
        let server = HTTPServer(uploadByteLimit: configuration.maxUploadBytes,
                                bodyHandling: { [unowned self] in self.bodyHandling(for: $0) },
                                handler: { [unowned self] in self.respond(to: $0) })
        port = try server.start(host: configuration.host, port: configuration.port,
                                connectionLimit: configuration.connectionLimit,
                                timeoutSeconds: configuration.clientTimeoutSeconds)
        http = server
        if let path = configuration.socketPath {
            do {
                faces = try FaceSocketListener(path: path, sessionLimit: configuration.maxSessions)
            } catch {
                server.stop()
                http = nil
                throw error
            }
        }
    }

    /// Stops taking work, lets in-flight work finish for the grace period,
    /// cancels what is left, then closes the listeners.
    public func shutdown() {
        queue.close(cancelRunning: false)
        faces?.stopAccepting()
        streams.shutdown(graceSeconds: configuration.shutdownGraceSeconds)
        if !queue.waitUntilIdle(timeoutSeconds: configuration.shutdownGraceSeconds) {
            queue.close(cancelRunning: true)
            _ = queue.waitUntilIdle(timeoutSeconds: 30)
        }
        faces?.finishSessions(graceSeconds: configuration.shutdownGraceSeconds)
        queue.stopWorkers()
        http?.stop()
        http = nil
        faces = nil
    }

    /// How often a quiet event stream sends a keep-alive comment: well
    /// inside the connection timeout, so that MHD does not close it.
    var keepAliveSeconds: Double {
        min(15, Double(configuration.clientTimeoutSeconds) / 2)
    }

    /// Routes one request.
    func respond(to request: HTTPRequest) -> HTTPResponse {
        if let parts = Self.streamPath(request.path) { return respondToStream(request, parts: parts) }
        switch (request.method, request.path) {
        case ("GET", "/health"):
            return .json(health())
        case ("GET", "/v1/models"):
            return .json(ModelList(data: [.init(id: configuration.modelName), .init(id: "whisper-1")]))
        case ("POST", "/v1/audio/transcriptions"):
            guard let form = request.form else { return .error(ServiceError(.invalidRequest, code: "missing_file", "No body.")) }
            do {
                let transcription = try TranscriptionRequest(form: form, loadedModel: configuration.modelName,
                                                             englishOnly: configuration.isEnglishOnly)
                return try transcribe(transcription)
            } catch let error as ServiceError {
                return .error(error)
            } catch {
                return .error(ServiceError(.server, code: "internal_error", "\(error)"))
            }
        case (_, "/health"), (_, "/v1/models"), (_, "/v1/audio/transcriptions"):
            return .error(ServiceError(.methodNotAllowed, code: "method_not_allowed",
                                       "\(request.method) is not allowed on \(request.path)."))
        default:
            return .error(ServiceError(.notFound, code: "not_found",
                                       "No endpoint \(request.path); use POST /v1/audio/transcriptions or GET /health."))
        }
    }

    /// Decodes, checks the duration, and transcribes on the queue.
    private func transcribe(_ request: TranscriptionRequest) throws -> HTTPResponse {
        if request.stream { return try StreamingTranscription.start(request, service: self) }
        let transcript = try queue.run { [models, configuration] in
            let samples = try Self.decode(request, limitSeconds: configuration.maxDurationSeconds)
            do {
                return try models.transcriber().transcribe(samples: samples, options: request.options)
            } catch let error as EngineError {
                throw Self.serviceError(error)
            }
        }
        return TranscriptionResponse.render(transcript, for: request)
    }

    /// The uploaded file as 16 kHz samples, refused when it is not audio or too long.
    static func decode(_ request: TranscriptionRequest, limitSeconds: Double) throws(ServiceError) -> [Float] {
        let samples: [Float]
        do {
            samples = try AudioDecoder.decode(contentsOf: request.fileURL)
        } catch {
            // The engine's message names the temporary copy; the client knows its own file name.
            let reason = ((error as? EngineError)?.message ?? "\(error)")
                .replacingOccurrences(of: "'\(request.fileURL.path)' ", with: "")
                .replacingOccurrences(of: request.fileURL.path, with: request.fileName)
            throw ServiceError(.invalidRequest, code: "invalid_audio",
                               "The uploaded file '\(request.fileName)' could not be decoded as audio "
                               + "(WAV, FLAC, OGG/Opus or MP3): \(reason)", parameter: "file")
        }
        let seconds = Double(samples.count) / AudioDecoder.sampleRate
        guard seconds <= limitSeconds else {
            throw ServiceError(.invalidRequest, code: "audio_too_long",
                               "The audio is \(Int(seconds.rounded())) s long; this service takes at most "
                               + "\(Int(limitSeconds)) s (--max-duration-seconds). Split the file.", parameter: "file")
        }
        return samples
    }

    /// The transcriber, loaded on first use.
    func transcriber() throws -> Transcriber {
        do {
            return try models.transcriber()
        } catch let error as EngineError {
            throw Self.serviceError(error)
        }
    }

    /// An engine failure as the service reports it.
    static func serviceError(_ error: EngineError) -> ServiceError {
        if error.code == .cancelled {
            return ServiceError(.busy, code: "cancelled", "The service shut down while this request ran; retry later.")
        }
        if error.code == .unsupportedLanguage || error.code == .invalidArgument {
            return ServiceError(.invalidRequest, code: "\(error.code)", error.message)
        }
        return ServiceError(.server, code: "\(error.code)", error.message)
    }

    private func health() -> Health {
        let load = queue.load
        return Health(status: "ok", model: configuration.modelName, running: load.running, waiting: load.waiting,
                      maxQueue: configuration.maxQueue, sessions: faces?.sessionCount ?? 0,
                      streams: streams.activeCount, memory: AllocatorTuning.statistics())
    }

    private struct Health: Encodable {
        var status: String
        var model: String
        var running: Int
        var waiting: Int
        var maxQueue: Int
        var sessions: Int
        var streams: Int
        var memory: MemoryStatistics
    }

    private struct ModelList: Encodable {
        struct Entry: Encodable {
            var id: String
            var object = "model"
            var owned_by = "speechcompat"
        }
        var object = "list"
        var data: [Entry]
    }
}

/// The model, loaded once on first use and shared by every request.
final class ModelHolder: @unchecked Sendable {
    // `loaded` is guarded by `lock`.
    private let lock = NSLock()
    private let load: @Sendable () throws -> Transcriber
    private var loaded: Transcriber?

    init(load: @escaping @Sendable () throws -> Transcriber) {
        self.load = load
    }

    func transcriber() throws -> Transcriber {
        lock.lock()
        defer { lock.unlock() }
        if let loaded { return loaded }
        let transcriber = try load()
        loaded = transcriber
        return transcriber
    }
}
