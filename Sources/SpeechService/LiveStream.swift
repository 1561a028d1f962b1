import Foundation
import SpeechEngine

/// One live stream (`POST /v1/audio/streams`): raw audio arrives in request
/// bodies as it is captured, goes through a `PCMStreamDecoder` into the
/// engine's `StreamingRecognizer`, and every result is kept in an event log
/// that `GET …/events` replays and follows as server-sent events.
///
/// The events are the recognizer's own, in its order: `volatile` and `final`
/// carry the same text, times and words as in-process streaming; the stream
/// ends with `done` (the committed text) or `error`. A stream ended by a
/// limit (duration, idle timeout) is finalized first, so committed text is
/// never lost: its finals come out, then the `error` event saying why.
final class LiveStream: @unchecked Sendable {
    // Everything mutable is guarded by `lock`.

    /// Where the stream is in its life.
    enum State: String, Sendable {
        /// Taking audio.
        case open
        /// No more audio; the recognizer finalizes what it has.
        case finishing
        /// `done` or `error` was sent.
        case ended
    }

    /// The stream's id, as its URLs carry it.
    let id: String
    /// The audio's encoding, rate and channels as created (a WAV header may update rate and channels).
    let encoding: PCMStreamDecoder.Encoding
    /// Longest audio taken, seconds (16 kHz stream time).
    let maxSeconds: Double
    private let lock = NSLock()
    private let recognizer: StreamingRecognizer
    private var decoder: PCMStreamDecoder
    private var current = State.open
    private var receiving = false
    private var log: [Data] = []
    private var followers: [ObjectIdentifier: ResponseStream] = [:]
    private var finals: [String] = []
    /// Why the stream is being ended early; sent as its `error` event.
    private var endingError: ServiceError?
    private var sampleCount = 0
    private var lastActivity = Date()
    private var ended: Date?
    /// Called once when the stream ends (the registry frees its slot).
    private let onEnd: @Sendable (LiveStream) -> Void

    init(id: String, decoder: PCMStreamDecoder, transcriber: Transcriber, options: StreamingOptions,
         maxSeconds: Double, onEnd: @escaping @Sendable (LiveStream) -> Void) {
        self.id = id
        self.encoding = decoder.encoding
        self.decoder = decoder
        self.maxSeconds = maxSeconds
        self.onEnd = onEnd
        recognizer = StreamingRecognizer(accurate: transcriber, options: options)
        let events = recognizer.events
        Task { [self] in
            for await event in events { record(event) }
        }
    }

    /// Where the stream is now.
    var state: State { lock.withLock { current } }
    /// When `done` or `error` went out; nil before.
    var endedAt: Date? { lock.withLock { ended } }

    /// A snapshot for `GET /v1/audio/streams/ID` and the audio POST's answer.
    var status: LiveStreamStatus {
        lock.withLock {
            LiveStreamStatus(id: id, state: current.rawValue, receivedSeconds: TranscriptionResponse.rounded(Double(sampleCount) / Transcriber.sampleRate),
                             sampleRate: decoder.sampleRate, channels: decoder.channelCount, encoding: encoding.rawValue)
        }
    }

    // MARK: Audio in

    /// Takes the stream for one audio request.
    /// - Throws: `ServiceError` 409 when another audio request is running or the stream takes no more audio.
    func beginReceiving() throws(ServiceError) {
        lock.lock()
        defer { lock.unlock() }
        guard current == .open else {
            throw ServiceError(.conflict, code: "stream_finished",
                               "Stream \(id) takes no more audio (it is \(current.rawValue)); create a new stream.")
        }
        guard !receiving else {
            throw ServiceError(.conflict, code: "stream_busy",
                               "Another request is sending audio to stream \(id); send the chunks one after another.")
        }
        receiving = true
        lastActivity = Date()
    }

    /// Decodes and appends the next bytes. On a limit or undecodable audio
    /// the stream is finalized and the error returned (the rest is refused).
    func receive(_ bytes: UnsafeRawBufferPointer) -> ServiceError? {
        lock.lock()
        guard current == .open else {
            lock.unlock()
            return ServiceError(.conflict, code: "stream_finished", "Stream \(id) was ended while audio arrived.")
        }
        lastActivity = Date()
        let samples: [Float]
        do {
            samples = try decoder.decode(bytes)
        } catch {
            lock.unlock()
            end(because: error)
            return error
        }
        let room = Int(maxSeconds * Transcriber.sampleRate) - sampleCount
        let taken = samples.count <= room ? samples : Array(samples.prefix(max(0, room)))
        sampleCount += taken.count
        recognizer.append(taken)
        lock.unlock()
        guard taken.count == samples.count else {
            let error = ServiceError(.invalidRequest, code: "stream_too_long",
                                     "Stream \(id) reached its limit of \(Int(maxSeconds)) s of audio "
                                     + "(--max-stream-seconds); what came before was transcribed. Start a new stream for more.")
            end(because: error)
            return error
        }
        return nil
    }

    /// The audio request is over; with `finishing`, the stream takes no more
    /// audio and its last results follow.
    func endReceiving(finishing: Bool) {
        lock.lock()
        receiving = false
        lastActivity = Date()
        lock.unlock()
        if finishing { finish() }
    }

    /// No more audio: the recognizer finalizes, then `done`.
    func finish() {
        lock.lock()
        guard current == .open else { return lock.unlock() }
        current = .finishing
        let tail = decoder.finish()
        sampleCount += tail.count
        lock.unlock()
        recognizer.append(tail)
        recognizer.finish()
    }

    /// Stops recognition now (`DELETE`): results end with an `error` event, code `cancelled`.
    func cancel() {
        lock.lock()
        guard current != .ended else { return lock.unlock() }
        current = .finishing
        lock.unlock()
        recognizer.cancel()
    }

    /// Ends an open stream because of `error` (a limit, bad audio, shutdown):
    /// what was received is finalized, then the `error` event goes out.
    func end(because error: ServiceError) {
        lock.withLock { if endingError == nil { endingError = error } }
        finish()
    }

    /// Seconds since audio last arrived, for the idle timeout (0 while a request is sending).
    func idleSeconds(now: Date) -> Double {
        lock.withLock { receiving || current != .open ? 0 : now.timeIntervalSince(lastActivity) }
    }

    // MARK: Events out

    /// Sends the log after event number `after` to `stream`, then follows
    /// new events until the stream ends.
    func follow(into stream: ResponseStream, after: Int) {
        lock.lock()
        for event in log.dropFirst(max(0, after)) { stream.send(event) }
        if current == .ended {
            lock.unlock()
            stream.finish()
            return
        }
        let key = ObjectIdentifier(stream)
        followers[key] = stream
        lock.unlock()
        stream.whenAbandoned { [weak self] in
            self?.lock.withLock { _ = self?.followers.removeValue(forKey: key) }
        }
    }

    private func record(_ event: StreamingEvent) {
        switch event {
        case .volatile(let hypothesis):
            append("volatile", StreamEventSpan(hypothesis))
        case .final(let hypothesis):
            lock.withLock { finals.append(hypothesis.text) }
            append("final", StreamEventSpan(hypothesis))
        case .finished:
            let (error, text, seconds) = lock.withLock {
                (endingError, finals.joined(separator: " "), Double(sampleCount) / Transcriber.sampleRate)
            }
            if let error {
                append("error", StreamErrorEvent(error, text: text))
            } else {
                append("done", StreamDoneEvent(text: text, duration: TranscriptionResponse.rounded(seconds)))
            }
            markEnded()
        case .failed(let engineError):
            let text = lock.withLock { finals.joined(separator: " ") }
            let error = lock.withLock { endingError } ?? (engineError.code == .cancelled
                ? ServiceError(.invalidRequest, code: "cancelled", "Stream \(id) was cancelled (DELETE).")
                : RecognitionService.serviceError(engineError))
            append("error", StreamErrorEvent(error, text: text))
            markEnded()
        case .speechDetected, .speechEnded, .committed, .progress:
            break
        }
    }

    private func append(_ name: String, _ payload: some Encodable) {
        lock.lock()
        var event = Data("id: \(log.count + 1)\nevent: \(name)\ndata: ".utf8)
        event.append((try? JSONEncoder().encode(payload)) ?? Data("{}".utf8))
        event.append(Data("\n\n".utf8))
        log.append(event)
        let targets = Array(followers.values)
        lock.unlock()
        targets.forEach { $0.send(event) }
    }

    private func markEnded() {
        lock.lock()
        current = .ended
        ended = Date()
        let targets = Array(followers.values)
        followers = [:]
        lock.unlock()
        targets.forEach { $0.finish() }
        onEnd(self)
    }
}
