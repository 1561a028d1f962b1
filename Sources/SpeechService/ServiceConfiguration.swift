import Foundation

/// How `speech serve` runs: where it listens, which model it holds, and the
/// limits that keep one client from taking the service down.
public struct ServiceConfiguration: Sendable {
    /// IPv4 address the HTTP endpoint binds (loopback by default).
    public var host = "127.0.0.1"
    /// HTTP port; 0 picks a free one (tests).
    public var port: UInt16 = 8178
    /// Unix socket for the Speech faces (`SPEECHCOMPAT_SERVICE=unix:PATH`), if any.
    public var socketPath: String?
    /// The loaded model's name, as `/health` and `model` fields show it.
    public var modelName = "whisper-base"
    /// The model knows only English (requests for other languages are refused).
    public var isEnglishOnly = false
    /// Largest upload accepted, bytes (413 beyond).
    public var maxUploadBytes = 100 * 1024 * 1024
    /// Longest audio accepted, seconds (400 beyond).
    public var maxDurationSeconds = 3600.0
    /// Requests that may wait for a worker (503 beyond).
    public var maxQueue = 8
    /// Transcriptions that run at once (each uses the engine's threads).
    public var workerCount = 1
    /// Face sessions served at once over the socket (refused beyond).
    public var maxSessions = 8
    /// Live streams (`POST /v1/audio/streams`) unfinished at once (503 beyond).
    public var maxStreams = 4
    /// A live stream that gets no audio this long is finalized and ended.
    public var streamIdleTimeoutSeconds = 30.0
    /// Longest audio one live stream takes, seconds (the rest is refused).
    public var maxStreamSeconds = 3600.0
    /// A connection idle this long is closed (slow or stuck clients).
    public var clientTimeoutSeconds = 30
    /// Open HTTP connections at most.
    public var connectionLimit = 64
    /// On shutdown, in-flight work gets this long to finish before it is cancelled.
    public var shutdownGraceSeconds = 10.0

    /// The defaults above.
    public init() {}
}

/// Why the service could not start or keep running, with what to do about it.
public struct ServeError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable set of codes.
    public enum Code: String, Sendable {
        /// The HTTP address is taken, not allowed, or not an address.
        case cannotListen
        /// The unix socket path cannot be bound (taken by a live service, too long, no permission).
        case cannotBindSocket
        /// The model could not be loaded.
        case modelUnavailable
    }

    /// What went wrong.
    public var code: Code
    /// What happened and how to fix it.
    public var message: String

    /// An error with `code` and a message that says how to fix it.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`, as the CLI prints it.
    public var description: String { "\(code.rawValue): \(message)" }
}
