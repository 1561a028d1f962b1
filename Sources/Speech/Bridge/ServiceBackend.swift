import Foundation
internal import SpeechEngine

/// A `RecognitionBackend` in another process: `speech serve`'s unix socket.
///
/// Chosen by `RecognitionSessionFactory.engine` when the process sets
/// `SPEECHCOMPAT_SERVICE=unix:PATH`, so that many programs share one loaded
/// model. The verbs become `ServiceWire` frames, the service's updates come
/// back on a reader thread, and a service that goes away ends the session
/// with `.failed(ServiceBackendError(.disconnected))` (or a cancellation if
/// the face had cancelled), never a crash or a hang.
final class ServiceBackend: RecognitionBackend {
    private let socket: ServiceSocket
    private let state = LocalState()
    let updates: AsyncStream<SessionUpdate>

    /// The environment variable that opts a process in.
    static let environmentKey = "SPEECHCOMPAT_SERVICE"
    /// How long opening a session may wait for the service (it may be loading the model).
    static let openTimeoutSeconds = 300

    /// The socket path `SPEECHCOMPAT_SERVICE` names, or nil when unset or empty.
    /// - Throws: `ServiceBackendError(.invalidEndpoint)` for a value that is not `unix:PATH`.
    static func endpointFromEnvironment() throws -> String? {
        guard let value = ProcessInfo.processInfo.environment[environmentKey], !value.isEmpty else { return nil }
        guard value.hasPrefix("unix:"), value.count > 5 else {
            throw ServiceBackendError(.invalidEndpoint, "\(environmentKey)='\(value)' is not unix:PATH; set it to the "
                                      + "--socket path of `speech serve` (e.g. unix:/tmp/speech.sock), or unset it.")
        }
        return String(value.dropFirst(5))
    }

    /// Opens a session at the service at `socketPath`.
    /// - Throws: `ServiceBackendError(.unreachable)` when no service answers;
    ///   the service's own refusal (e.g. `EngineError(.unsupportedLanguage)`),
    ///   exactly as `EngineBackend` would have thrown it.
    /// - Throws: `ServiceBackendError(.timedOut)` when the service accepts
    ///   the connection but does not answer within `openTimeoutSeconds`.
    init(socketPath: String, locale: Locale, configuration: RecognitionConfiguration,
         openTimeoutSeconds: Int = ServiceBackend.openTimeoutSeconds) throws {
        let socket = try ServiceSocket.connect(path: socketPath)
        socket.setReceiveTimeout(seconds: openTimeoutSeconds)
        let request = ServiceWire.OpenRequest(locale: locale, configuration: configuration)
        guard socket.send(.open, ServiceWire.encodeJSON(request)), let reply = socket.receive() else {
            if socket.lastReceiveTimedOut {
                throw ServiceBackendError(.timedOut, "The recognition service at unix:\(socketPath) did not open the "
                                          + "session within \(openTimeoutSeconds) s; it may be stuck or overloaded. "
                                          + "Check its log, restart `speech serve`, or unset SPEECHCOMPAT_SERVICE "
                                          + "to recognize in this process.")
            }
            throw ServiceBackendError(.disconnected, "The recognition service at unix:\(socketPath) closed the "
                                      + "connection before the session opened; check its log.")
        }
        switch reply.kind {
        case .ready:
            break
        case .rejected:
            let refusal = try? JSONDecoder().decode(ServiceWire.WireError.self, from: reply.payload)
            throw refusal?.error ?? ServiceBackendError(.protocolViolation, "The service refused the session without a reason.")
        default:
            throw ServiceBackendError(.protocolViolation, "The service answered the open request with \(reply.kind).")
        }
        socket.setReceiveTimeout(seconds: 0)
        self.socket = socket
        let state = self.state
        updates = AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let reader = Thread {
                Self.readUpdates(from: socket, state: state, into: continuation)
            }
            reader.name = "speech.service.reader"
            reader.start()
        }
    }

    deinit {
        // Wake the reader; it closes the socket, which ends the session at the service.
        socket.shutdown()
    }

    /// Yields the service's updates until the terminal one or the end of the
    /// connection, then closes the socket.
    private static func readUpdates(from socket: ServiceSocket, state: LocalState,
                                    into continuation: AsyncStream<SessionUpdate>.Continuation) {
        defer {
            socket.close()
            continuation.finish()
        }
        while let frame = socket.receive() {
            guard frame.kind == .update,
                  let wire = try? JSONDecoder().decode(ServiceWire.WireUpdate.self, from: frame.payload),
                  let update = wire.update else {
                continuation.yield(.failed(ServiceBackendError(.protocolViolation,
                                                               "The service sent a frame this client does not understand; "
                                                               + "update speech serve and the client together.")))
                return
            }
            continuation.yield(update)
            switch update {
            case .finished, .failed: return
            default: continue
            }
        }
        if state.cancelled {
            continuation.yield(.failed(EngineError(.cancelled, "Recognition was cancelled.")))
        } else {
            continuation.yield(.failed(ServiceBackendError(.disconnected,
                                                           "The recognition service went away during recognition; "
                                                           + "results delivered before stand. Restart `speech serve`.")))
        }
    }

    func append(_ samples: [Float]) {
        socket.send(.append, ServiceWire.samplesPayload(samples[...]))
    }

    func appendGap(seconds: Double) {
        socket.send(.gap, ServiceWire.secondsPayload(seconds))
    }

    func appendRecording(_ samples: [Float]) {
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + ServiceWire.recordingChunkSamples)
            guard socket.send(.recordingChunk, ServiceWire.samplesPayload(samples[start..<end])) else { return }
            start = end
        }
        socket.send(.recordingEnd)
    }

    func commit(throughSeconds seconds: Double) {
        socket.send(.commit, ServiceWire.secondsPayload(seconds))
    }

    func finish() {
        socket.send(.finish)
    }

    func cancel() {
        state.cancelled = true
        socket.send(.cancel)
    }

    /// What the face did locally that the reader needs to know.
    private final class LocalState: @unchecked Sendable {
        private let lock = NSLock()
        private var _cancelled = false
        var cancelled: Bool {
            get { lock.withLock { _cancelled } }
            set { lock.withLock { _cancelled = newValue } }
        }
    }
}

/// Why recognition through `speech serve` failed on the face's side.
///
/// Reaches apps mapped like any non-engine failure: the modern face's
/// `SFSpeechError(.internalServiceError)`, the legacy face's
/// kAFAssistantErrorDomain 203, with this error's message as the reason.
package struct ServiceBackendError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What went wrong.
    package enum Code: String, Sendable {
        /// `SPEECHCOMPAT_SERVICE` is set but not to `unix:PATH`.
        case invalidEndpoint
        /// No service listens at the path.
        case unreachable
        /// The service closed the connection mid-session.
        case disconnected
        /// A frame did not follow the protocol (mismatched versions).
        case protocolViolation
        /// The service failed with an error this side cannot map.
        case remoteFailure
        /// The service serves as many sessions as it allows.
        case busy
        /// The service took the connection but did not answer in time.
        case timedOut
    }

    /// What went wrong.
    package var code: Code
    /// What happened and how to fix it.
    package var message: String

    /// An error with `code` and a message that says how to fix it.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    package var description: String { "\(code.rawValue): \(message)" }
    /// The message, for `localizedDescription`.
    package var errorDescription: String? { message }
}
