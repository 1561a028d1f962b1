import Foundation

/// A response body written while the work runs (server-sent events): the
/// producer sends chunks, MHD's connection thread takes them, blocking until
/// one is there. When the client goes away the stream is abandoned, and the
/// producer sees `isAbandoned` and stops its work.
///
/// While nothing is pending for `keepAliveSeconds`, a read returns an SSE
/// comment line instead: libmicrohttpd closes a connection that sends
/// nothing for its timeout (`--timeout-seconds`), and a live stream can go
/// quiet for longer than that while the speaker pauses or decoding runs.
final class ResponseStream: @unchecked Sendable {
    // All state is guarded by `condition`.
    private let condition = NSCondition()
    private var pending = Data()
    private var finished = false
    private var abandoned = false
    /// Called once when the client goes away before the end.
    private var onAbandon: (@Sendable () -> Void)?
    /// Longest silence before a keep-alive comment.
    let keepAliveSeconds: Double

    /// A stream that sends `: keep-alive` after `keepAliveSeconds` without data.
    init(keepAliveSeconds: Double) {
        self.keepAliveSeconds = max(0.5, keepAliveSeconds)
    }

    /// Whether the client went away.
    var isAbandoned: Bool {
        condition.lock()
        defer { condition.unlock() }
        return abandoned
    }

    /// Registers what stops the producer's work if the client goes away.
    func whenAbandoned(_ action: @escaping @Sendable () -> Void) {
        condition.lock()
        let already = abandoned
        if !already { onAbandon = action }
        condition.unlock()
        if already { action() }
    }

    /// Queues bytes for the client.
    func send(_ data: Data) {
        condition.lock()
        if !finished && !abandoned { pending.append(data) }
        condition.signal()
        condition.unlock()
    }

    /// One server-sent event: `event: NAME` and a JSON `data:` line.
    func sendEvent(_ name: String, json: Data) {
        var event = Data("event: \(name)\ndata: ".utf8)
        event.append(json)
        event.append(Data("\n\n".utf8))
        send(event)
    }

    /// No more bytes: the body ends once what is pending is read.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Copies up to `capacity` pending bytes into `buffer`, waiting for some;
    /// nil at the end of the stream.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(keepAliveSeconds)
        while pending.isEmpty && !finished && !abandoned {
            if !condition.wait(until: deadline), pending.isEmpty, !finished, !abandoned {
                pending = Data(": keep-alive\n\n".utf8)
            }
        }
        guard !pending.isEmpty else { return nil }
        let count = min(capacity, pending.count)
        pending.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress!, byteCount: count) }
        pending.removeFirst(count)
        if pending.isEmpty { pending = Data() }  // drop the consumed storage
        return count
    }

    /// The connection is gone (MHD freed the response): stop the producer.
    func abandon() {
        condition.lock()
        let action = finished ? nil : onAbandon
        abandoned = true
        onAbandon = nil
        pending = Data()
        condition.broadcast()
        condition.unlock()
        action?()
    }
}
