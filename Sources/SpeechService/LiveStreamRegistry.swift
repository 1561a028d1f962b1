import Foundation
import SpeechEngine

/// The service's live streams by id, with their limits: at most
/// `maxStreams` unfinished at once (503 beyond), each ended after
/// `idleTimeoutSeconds` without audio, and kept for `retentionSeconds`
/// after its end so that a client reconnecting to `…/events` still gets
/// every event.
///
/// A sweeper thread checks the timeouts once a second.
final class LiveStreamRegistry: @unchecked Sendable {
    // `streams` and `stopped` are guarded by `condition`.
    private let condition = NSCondition()
    private var streams: [String: LiveStream] = [:]
    private var stopped = false
    let maxStreams: Int
    let idleTimeoutSeconds: Double
    let retentionSeconds: Double

    init(maxStreams: Int, idleTimeoutSeconds: Double, retentionSeconds: Double = 60) {
        self.maxStreams = maxStreams
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.retentionSeconds = retentionSeconds
        let sweeper = Thread { [weak self] in
            while let self, self.sweep() {}
        }
        sweeper.name = "speech.serve.streams"
        sweeper.start()
    }

    /// Streams not yet ended (for `/health` and the limit).
    var activeCount: Int {
        condition.withLock { streams.values.filter { $0.state != .ended }.count }
    }

    /// Registers a new stream made by `make` with a fresh id.
    /// - Throws: `ServiceError(.busy)` when `maxStreams` are running or the service is stopping.
    func create(_ make: (String) throws(ServiceError) -> LiveStream) throws(ServiceError) -> LiveStream {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else {
            throw ServiceError(.busy, code: "shutting_down", "The service is shutting down; retry against a running one.")
        }
        guard streams.values.filter({ $0.state != .ended }).count < maxStreams else {
            throw ServiceError(.busy, code: "too_many_streams",
                               "The service runs \(maxStreams) live streams already (--max-streams); "
                               + "retry when one ends.")
        }
        let id = "stream_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(24)
        let stream = try make(id)
        streams[id] = stream
        return stream
    }

    /// The stream with `id`.
    /// - Throws: `ServiceError(.notFound)` for an unknown or expired id.
    func stream(_ id: String) throws(ServiceError) -> LiveStream {
        guard let stream = condition.withLock({ streams[id] }) else {
            throw ServiceError(.notFound, code: "stream_not_found",
                               "No live stream '\(id)' (never created, or ended more than \(Int(retentionSeconds)) s ago); "
                               + "create one with POST /v1/audio/streams.")
        }
        return stream
    }

    /// Called by a stream when it ends: wakes `waitUntilEnded`.
    func streamEnded() {
        condition.withLock { condition.broadcast() }
    }

    /// Ends every open stream (finalizing what each received), waits up to
    /// `graceSeconds` for their last results, cancels what is left.
    func shutdown(graceSeconds: Double) {
        let open = condition.withLock {
            stopped = true
            condition.broadcast()
            return streams.values.filter { $0.state != .ended }
        }
        let stopping = ServiceError(.busy, code: "shutting_down",
                                    "The service shut down; the text so far is final. Retry against a running one.")
        open.forEach { $0.end(because: stopping) }
        if !waitUntilEnded(open, seconds: graceSeconds) {
            open.forEach { $0.cancel() }
            _ = waitUntilEnded(open, seconds: 30)
        }
    }

    private func waitUntilEnded(_ streams: [LiveStream], seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while streams.contains(where: { $0.state != .ended }) {
            if !condition.wait(until: deadline) { return !streams.contains { $0.state != .ended } }
        }
        return true
    }

    /// One pass of the sweeper; false once the registry stopped.
    private func sweep() -> Bool {
        condition.lock()
        _ = condition.wait(until: Date().addingTimeInterval(1))
        if stopped {
            condition.unlock()
            return false
        }
        let now = Date()
        for (id, stream) in streams {
            if let endedAt = stream.endedAt, now.timeIntervalSince(endedAt) > retentionSeconds {
                streams[id] = nil
            }
        }
        let idle = streams.values.filter { $0.idleSeconds(now: now) > idleTimeoutSeconds }
        condition.unlock()
        for stream in idle {
            stream.end(because: ServiceError(.invalidRequest, code: "idle_timeout",
                                             "No audio reached stream \(stream.id) for \(Int(idleTimeoutSeconds)) s "
                                             + "(--stream-idle-seconds); the text so far is final. Send chunks more often, "
                                             + "or POST …/finish when the audio ends."))
        }
        return true
    }
}
