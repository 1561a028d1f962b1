import Foundation

/// The audio path from a request to its task's session: 16 kHz mono samples
/// in, forwarded in order once a task attaches.
///
/// Apple lets apps append buffers before (or while) the task starts, from any
/// thread — typically an audio tap. Samples that arrive before a task
/// attaches are kept and handed over on attach; after `end()` (or `close()`
/// on cancellation) further audio is ignored, as after `endAudio()`.
final class AudioFeed: @unchecked Sendable {
    // @unchecked: all state is behind `lock`; sinks are called under it so
    // that samples reach the session in the order they were appended.

    /// Where a task takes the audio.
    struct Sink: Sendable {
        /// Receives samples, in order.
        var samples: @Sendable ([Float]) -> Void
        /// Receives a whole recording (a file's samples), to decode as a file.
        var recording: @Sendable ([Float]) -> Void
        /// Called once when audio input ends.
        var end: @Sendable () -> Void
        /// Called when the source failed (e.g. an unreadable file).
        var fail: @Sendable (any Error) -> Void
        /// Called once when the source failed after giving audio (a capture
        /// device that vanished): the audio given is still recognized.
        var interrupt: @Sendable (any Error) -> Void
    }

    private let lock = NSLock()
    private var pending: [Float] = []
    private var pendingRecording: [Float]?
    private var pendingFailure: (any Error)?
    private var pendingInterruption: (any Error)?
    private var ended = false
    private var attached = false
    private var sink: Sink?

    /// Forwards samples to the task, or keeps them until one attaches.
    /// Returns `false` (and drops them) once audio has ended.
    @discardableResult
    func append(_ samples: [Float]) -> Bool {
        lock.withLock {
            guard !ended else { return false }
            guard !samples.isEmpty else { return true }
            if let sink { sink.samples(samples) } else { pending += samples }
            return true
        }
    }

    /// Hands over a whole recording (URL requests), or keeps it until a task attaches.
    func appendRecording(_ samples: [Float]) {
        lock.withLock {
            guard !ended else { return }
            if let sink { sink.recording(samples) } else { pendingRecording = samples }
        }
    }

    /// No more audio. Idempotent.
    func end() {
        lock.withLock {
            guard !ended else { return }
            ended = true
            sink?.end()
        }
    }

    /// The source failed: audio ends and the task is told why.
    func fail(_ error: any Error) {
        let sink: Sink? = lock.withLock {
            guard !ended else { return nil }
            ended = true
            if self.sink == nil { pendingFailure = error }
            return self.sink
        }
        // Outside the lock: the task's failure path closes this feed.
        sink?.fail(error)
    }

    /// The source failed after giving audio: audio ends, what was given is
    /// still recognized, and the task then ends with `error`. Idempotent.
    func interrupt(_ error: any Error) {
        lock.withLock {
            guard !ended else { return }
            ended = true
            if let sink { sink.interrupt(error) } else { pendingInterruption = error }
        }
    }

    /// Whether audio has ended (no more samples are taken).
    var isEnded: Bool { lock.withLock { ended } }

    /// Whether a task has attached (a request serves one task only).
    var isAttached: Bool { lock.withLock { attached } }

    /// Connects a task: kept samples and an earlier end are delivered at once.
    /// Returns `false` when another task already attached.
    func attach(_ newSink: Sink) -> Bool {
        let attachedNow = lock.withLock {
            guard !attached else { return false }
            attached = true
            sink = newSink
            if !pending.isEmpty {
                newSink.samples(pending)
                pending = []
            }
            if let recording = pendingRecording {
                newSink.recording(recording)
                pendingRecording = nil
            }
            if let interruption = pendingInterruption {
                newSink.interrupt(interruption)
                pendingInterruption = nil
            } else if ended, pendingFailure == nil {
                newSink.end()
            }
            return true
        }
        if attachedNow, let failure = lock.withLock({ pendingFailure }) {
            newSink.fail(failure)
        }
        return attachedNow
    }

    /// Disconnects the task (cancellation): audio ends without telling it.
    func close() {
        lock.withLock {
            ended = true
            sink = nil
            pending = []
            pendingRecording = nil
        }
    }
}
