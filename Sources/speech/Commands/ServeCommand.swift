import Foundation
import SpeechEngine
import SpeechService

/// `speech serve`: one process holding the model, serving OpenAI-compatible
/// HTTP transcription and, with `--socket`, the Speech faces of other
/// processes (`SPEECHCOMPAT_SERVICE=unix:PATH`).
struct ServeCommand: SpeechCommand {
    static let help = CommandHelp(
        commandName: "serve",
        overview: "Serve recognition over HTTP (OpenAI-compatible) and a unix socket for the Speech faces.",
        usage: "serve [--listen <host:port>] [--socket <path>] [--model <name>] [--max-upload-mb <N>] [--max-duration-seconds <N>] [--max-queue <N>] [--max-sessions <N>] [--workers <N>] [--max-streams <N>] [--stream-idle-seconds <N>] [--max-stream-seconds <N>] [--timeout-seconds <N>] [--format text|json]",
        commandOptions: [
            .value("listen", "host:port", help: "HTTP address (default: 127.0.0.1:8178, loopback only; port 0 picks one)."),
            .value("socket", "path", help: "Unix socket for the Speech faces; clients set SPEECHCOMPAT_SERVICE=unix:<path>."),
            ModelChoice.option,
            .value("max-upload-mb", "N", help: "Largest upload accepted, MB (default: 100; larger gets 413)."),
            .value("max-duration-seconds", "N", help: "Longest audio accepted, seconds (default: 3600)."),
            .value("max-queue", "N", help: "Requests that may wait for a worker (default: 8; more get 503)."),
            .value("max-sessions", "N", help: "Face sessions served at once over the socket (default: 8)."),
            .value("workers", "N", help: "Transcriptions run at once (default: 1)."),
            .value("max-streams", "N", help: "Live streams (/v1/audio/streams) at once (default: 4; more get 503)."),
            .value("stream-idle-seconds", "N", help: "End a live stream that gets no audio this long (default: 30)."),
            .value("max-stream-seconds", "N", help: "Longest audio one live stream takes, seconds (default: 3600)."),
            .value("timeout-seconds", "N", help: "Close connections idle this long (default: 30)."),
            .value("format", "format", help: "Startup message: text or json (default: text)."),
        ],
        discussion: """
        ENDPOINTS:
          POST /v1/audio/transcriptions  multipart: file, model, language, prompt, temperature,
                                         response_format (json, text, srt, vtt, verbose_json),
                                         timestamp_granularities[] (word, segment), stream (SSE)
          POST /v1/audio/streams         live audio: create a stream (encoding s16le|f32le|wav, sample_rate,
                                         channels, language, prompt); then POST raw audio to …/audio as it
                                         is captured (?finish=true on the last), GET …/events (SSE:
                                         volatile, final, done | error), POST …/finish, DELETE to cancel
          GET  /health                   status, model, queue load, streams, allocator figures
          GET  /v1/models                the served model
        SIGINT or SIGTERM stops taking work, lets in-flight work finish (10 s), then exits 0.

        EXAMPLES:
          speech serve --socket /tmp/speech.sock
          curl -F file=@talk.wav -F response_format=srt http://127.0.0.1:8178/v1/audio/transcriptions
          SPEECHCOMPAT_SERVICE=unix:/tmp/speech.sock ./MyRecognizerApp
          id=$(curl -s -X POST 'http://127.0.0.1:8178/v1/audio/streams?sample_rate=16000' | jq -r .id)
          curl -N http://127.0.0.1:8178/v1/audio/streams/$id/events &
          arecord -f S16_LE -r 16000 -c 1 -t raw | curl -X POST -T - "http://127.0.0.1:8178/v1/audio/streams/$id/audio?finish=true"
        """)

    var configuration: ServiceConfiguration
    var model: ModelChoice
    var json: Bool

    init(arguments: ParsedArguments) throws(UsageError) {
        var configuration = ServiceConfiguration()
        if let listen = arguments.value("listen") {
            guard let colon = listen.lastIndex(of: ":"), let port = UInt16(listen[listen.index(after: colon)...]),
                  colon != listen.startIndex else {
                throw UsageError("The value '\(listen)' for '--listen' must be HOST:PORT, e.g. 127.0.0.1:8178.")
            }
            configuration.host = String(listen[..<colon])
            configuration.port = port
        }
        configuration.socketPath = arguments.value("socket")
        model = try ModelChoice(arguments: arguments)
        configuration.modelName = model.description
        configuration.isEnglishOnly = model.isEnglishOnly
        if let megabytes = try arguments.integer("max-upload-mb", in: 1...4096) {
            configuration.maxUploadBytes = megabytes * 1024 * 1024
        }
        if let seconds = try arguments.integer("max-duration-seconds", in: 1...86_400) {
            configuration.maxDurationSeconds = Double(seconds)
        }
        configuration.maxQueue = try arguments.integer("max-queue", in: 0...1000) ?? configuration.maxQueue
        configuration.maxSessions = try arguments.integer("max-sessions", in: 1...1000) ?? configuration.maxSessions
        configuration.workerCount = try arguments.integer("workers", in: 1...64) ?? configuration.workerCount
        configuration.clientTimeoutSeconds = try arguments.integer("timeout-seconds", in: 1...3600)
            ?? configuration.clientTimeoutSeconds
        configuration.maxStreams = try arguments.integer("max-streams", in: 1...256) ?? configuration.maxStreams
        if let seconds = try arguments.integer("stream-idle-seconds", in: 1...3600) {
            configuration.streamIdleTimeoutSeconds = Double(seconds)
        }
        if let seconds = try arguments.integer("max-stream-seconds", in: 1...86_400) {
            configuration.maxStreamSeconds = Double(seconds)
        }
        json = try arguments.choice("format", from: ["text", "json"]) == "json"
        self.configuration = configuration
    }

    func run(console: Console) async throws {
        let model = self.model
        // Before any thread exists: few arenas, large buffers mmapped (AllocatorTuning).
        AllocatorTuning.apply(for: .service)
        let service = RecognitionService(configuration: configuration) { try model.loadTranscriber() }
        try service.loadModel()
        // Writes to clients that went away are errors, not a signal that kills the service.
        signal(SIGPIPE, SIG_IGN)
        let stop = ShutdownSignal()
        try service.start()
        let address = "http://\(configuration.host):\(service.port)"
        if json {
            let socket = configuration.socketPath.map { "\"unix:\($0)\"" } ?? "null"
            console.print("{\"listening\":\"\(address)\",\"socket\":\(socket),\"model\":\"\(configuration.modelName)\",\"pid\":\(getpid())}")
        } else {
            console.print("Listening on \(address)" + (configuration.socketPath.map { " and unix:\($0)" } ?? "")
                          + " (model \(configuration.modelName), pid \(getpid()))")
        }
        let received = await stop.wait()
        console.log("speech serve: \(received), finishing in-flight work")
        service.shutdown()
        console.log("speech serve: stopped")
    }
}

/// SIGINT and SIGTERM as one awaitable event (the default handlers would
/// kill the process mid-request).
final class ShutdownSignal: @unchecked Sendable {
    // `watch` is written once in init; `continuation`/`received` are guarded by `lock`.
    private let lock = NSLock()
    private var watch: SignalWatch?
    private var continuation: CheckedContinuation<String, Never>?
    private var received: String?

    init() {
        watch = SignalWatch([SIGINT, SIGTERM]) { [weak self] number in self?.deliver(SignalWatch.name(of: number)) }
    }

    /// Waits for the first signal and returns its name.
    func wait() async -> String {
        await withCheckedContinuation { continuation in
            lock.lock()
            if let received {
                lock.unlock()
                continuation.resume(returning: received)
                return
            }
            self.continuation = continuation
            lock.unlock()
        }
    }

    private func deliver(_ name: String) {
        lock.lock()
        guard received == nil else { return lock.unlock() }
        received = name
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(returning: name)
    }
}
