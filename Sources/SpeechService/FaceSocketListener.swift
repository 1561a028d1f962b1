import Foundation
import Speech
#if canImport(Glibc)
import Glibc
#endif

/// The unix socket the Speech faces reach the service on
/// (`SPEECHCOMPAT_SERVICE=unix:PATH`): one thread accepts, each connection
/// gets its own thread and `ServiceSessionHost`, and past `sessionLimit`
/// new sessions are refused with a busy error instead of queued.
final class FaceSocketListener: @unchecked Sendable {
    // `sessions` and `accepting` are guarded by `condition`.
    private let condition = NSCondition()
    private var sessions: [ObjectIdentifier: ServiceSessionHost] = [:]
    private var accepting = true
    private let listening: Int32
    private let path: String
    private let sessionLimit: Int
    private let acceptLoopEnded = DispatchSemaphore(value: 0)

    /// Binds `path` (replacing a stale socket file no service answers on).
    /// - Throws: `ServeError(.cannotBindSocket)` when the path is in use or cannot be bound.
    init(path: String, sessionLimit: Int) throws {
        self.path = path
        self.sessionLimit = sessionLimit
        guard var address = ServiceSocket.address(of: path) else {
            throw ServeError(.cannotBindSocket, "The socket path '\(path)' is too long (108 bytes at most); choose a shorter --socket.")
        }
        if FileManager.default.fileExists(atPath: path) {
            if Self.isLive(address) {
                throw ServeError(.cannotBindSocket, "Another service already listens on \(path); stop it or choose another --socket.")
            }
            unlink(path)  // a stale socket left by a service that was killed
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 64) == 0 else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw ServeError(.cannotBindSocket, "Cannot listen on \(path): \(reason).")
        }
        listening = fd
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "speech.serve.accept"
        thread.start()
    }

    /// Face sessions running now.
    var sessionCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return sessions.count
    }

    /// Stops taking sessions and removes the socket file.
    func stopAccepting() {
        condition.lock()
        let wasAccepting = accepting
        accepting = false
        condition.unlock()
        guard wasAccepting else { return }
        // Wake the accept loop; it closes the descriptor itself, so that the
        // number is never reused under a thread still calling accept on it.
        shutdown(listening, Int32(SHUT_RDWR))
        acceptLoopEnded.wait()
        unlink(path)
    }

    /// Waits up to `graceSeconds` for running sessions, then cancels the rest
    /// and waits for them to end.
    func finishSessions(graceSeconds: Double) {
        stopAccepting()
        let deadline = Date().addingTimeInterval(graceSeconds)
        condition.lock()
        while !sessions.isEmpty && condition.wait(until: deadline) {}
        let left = Array(sessions.values)
        condition.unlock()
        left.forEach { $0.cancel() }
        condition.lock()
        while !sessions.isEmpty && condition.wait(until: Date().addingTimeInterval(30)) {}
        condition.unlock()
    }

    private func acceptLoop() {
        defer {
            close(listening)
            acceptLoopEnded.signal()
        }
        while true {
            let connection = accept(listening, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return  // the listening socket was shut down
            }
            // Not inherited by programs the service (or a test holding it) starts.
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            condition.lock()
            let admitted = accepting && sessions.count < sessionLimit
            let host = admitted ? ServiceSessionHost(descriptor: connection) : nil
            if let host { sessions[ObjectIdentifier(host)] = host }
            condition.unlock()
            guard let host else {
                ServiceSessionHost.refuse(descriptor: connection, message: "The service runs \(sessionLimit) sessions "
                                          + "already (--max-sessions); retry when one ends.")
                continue
            }
            let worker = Thread { [self] in
                host.run()
                condition.lock()
                sessions[ObjectIdentifier(host)] = nil
                condition.broadcast()
                condition.unlock()
            }
            worker.name = "speech.serve.session"
            worker.start()
        }
    }

    /// Whether a service answers on `address`.
    private static func isLive(_ address: sockaddr_un) -> Bool {
        var address = address
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }
}
