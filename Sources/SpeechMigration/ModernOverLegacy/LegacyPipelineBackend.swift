import AVFoundation
import Foundation
import Speech

/// The legacy face's pipeline — `SFSpeechRecognitionTask`s of an
/// `SFSpeechRecognizer` — as the backend of a modern transcriber, so that
/// code keeps `SpeechAnalyzer`, its modules and their result sequences
/// while legacy tasks recognize (with legacy-only settings: task hints,
/// custom language models, contextual strings).
///
/// The verbs are the legacy API's own calls: live samples go to an
/// `SFSpeechAudioBufferRecognitionRequest`, a recording (the analyzer's
/// file) to an `SFSpeechURLRecognitionRequest`, and audio after a commit
/// to a new task. Each task's partials are volatile results; its final
/// result is one final over the audio the task heard.
///
/// What the legacy pipeline cannot do, and does instead:
/// - finalize part of its audio: `commit(throughSeconds:)` (the analyzer's
///   `finalize(through:)`) ends the task's audio there and finalizes all
///   of it, and the next audio starts a task without the earlier context;
/// - gaps: one of at most 2 s is heard as silence; a longer one ends the
///   task's audio, as a pause between utterances does;
/// - speech times: speech starts where the task had processed audio up to
///   when it reported detecting speech; partial results have no word times;
/// - scores of alternatives: the legacy API gives none (`unknownScore`).
/// A task that hears no speech (`kAFAssistantErrorDomain` 1110) gives an
/// empty final, as the modern face reports silence; any other task error
/// fails the analysis. The legacy pipeline needs speech-recognition
/// authorization (`SFSpeechRecognizer.requestAuthorization`).
final class LegacyPipelineBackend: RecognitionBackend, @unchecked Sendable {
    // @unchecked: all mutable state is behind `lock`.

    let updates: AsyncStream<SessionUpdate>
    private let output: UpdateOutput
    private let recognizer: SFSpeechRecognizer
    private let settings: LegacyRequestSettings
    private let lock = NSLock()
    /// Tasks in stream order; only the first one's updates are delivered
    /// yet, so a task's final comes before the next task's partials.
    private var tasks: [TaskRecord] = []
    /// The task taking live audio, if any.
    private var live: TaskRecord?
    private var streamSeconds = 0.0
    private var finishing = false

    /// A gap up to this long is heard as silence, longer ones end the task's
    /// audio (the engine's rule for gaps, so both pipelines hear the same).
    static let longestHeardGapSeconds = 2.0
    /// An alternative's score when the pipeline underneath gives none.
    static let unknownScore = -Double.infinity

    /// A backend recognizing with `settings` on a recognizer for `locale`.
    /// - Throws: `SFSpeechError.Code.cannotAllocateUnsupportedLocale` when
    ///   the legacy face has no recognizer for the locale.
    init(locale: Locale, settings: LegacyRequestSettings) throws {
        guard let recognizer = SFSpeechRecognizer(locale: locale) else {
            throw SFSpeechError(.cannotAllocateUnsupportedLocale, userInfo: [
                NSLocalizedDescriptionKey: "SFSpeechRecognizer does not support \(locale.identifier)."])
        }
        // The backend's own serial queue: delegate calls stay in order and
        // need no main run loop.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        recognizer.queue = queue
        self.recognizer = recognizer
        self.settings = settings
        let (updates, continuation) = AsyncStream.makeStream(of: SessionUpdate.self, bufferingPolicy: .unbounded)
        self.updates = updates
        output = UpdateOutput(continuation)
    }

    func append(_ samples: [Float]) {
        guard !samples.isEmpty else { return }
        let request: SFSpeechAudioBufferRecognitionRequest? = lock.withLock {
            guard !finishing else { return nil }
            let record = live ?? startLiveTask()
            streamSeconds += Double(samples.count) / Self.sampleRate
            return record.bufferRequest
        }
        guard let request, let buffer = MonoAudioConverter.buffer(samples[...]) else { return }
        request.append(buffer)
    }

    func appendGap(seconds: Double) {
        guard seconds > 0 else { return }
        let heard = lock.withLock { live != nil && seconds <= Self.longestHeardGapSeconds }
        if heard {
            append([Float](repeating: 0, count: Int((seconds * Self.sampleRate).rounded())))
        } else {
            lock.withLock {
                endLiveAudio()
                streamSeconds += seconds
            }
        }
    }

    func appendRecording(_ samples: [Float]) {
        let start: Double? = lock.withLock {
            guard !finishing, !samples.isEmpty else { return nil }
            endLiveAudio()
            defer { streamSeconds += Double(samples.count) / Self.sampleRate }
            return streamSeconds
        }
        guard let start else { return }
        do {
            let url = try MonoAudioConverter.writeTemporaryRecording(samples)
            let request = SFSpeechURLRecognitionRequest(url: url)
            settings.apply(to: request)
            let record = TaskRecord(startSeconds: start, request: request, recordingFile: url)
            record.endSeconds = start + Double(samples.count) / Self.sampleRate
            lock.withLock { tasks.append(record) }
            launch(record)
        } catch {
            output.end(.failed(error))
        }
    }

    func commit(throughSeconds seconds: Double) {
        lock.withLock { endLiveAudio() }
    }

    func finish() {
        let done = lock.withLock { () -> Bool in
            finishing = true
            endLiveAudio()
            return tasks.isEmpty
        }
        if done { output.end(.finished) }
    }

    func cancel() {
        let running = lock.withLock { () -> [TaskRecord] in
            finishing = true
            live = nil
            defer { tasks.removeAll() }
            return tasks
        }
        output.end(.failed(CancellationError()))
        for record in running {
            record.task?.cancel()
            record.removeRecordingFile()
        }
    }

    // MARK: Tasks

    /// Starts a buffer task at the current stream time. Call under `lock`.
    private func startLiveTask() -> TaskRecord {
        let request = SFSpeechAudioBufferRecognitionRequest()
        settings.apply(to: request)
        let record = TaskRecord(startSeconds: streamSeconds, request: request, recordingFile: nil)
        live = record
        tasks.append(record)
        // Starting the task takes the recognizer's locks, not ours.
        DispatchQueue.global(qos: .userInitiated).async { [self] in launch(record) }
        return record
    }

    /// Ends the live task's audio: it finalizes what it heard. Call under `lock`.
    private func endLiveAudio() {
        guard let record = live else { return }
        live = nil
        record.endSeconds = streamSeconds
        record.bufferRequest?.endAudio()
    }

    private func launch(_ record: TaskRecord) {
        let observer = TaskObserver(record: record, backend: self)
        record.observer = observer
        record.task = recognizer.recognitionTask(with: record.request, delegate: observer)
    }

    /// Delivers `update` of `record` now if it is the first task, else
    /// keeps it until the tasks before have ended.
    func deliver(_ update: SessionUpdate, of record: TaskRecord) {
        let now = lock.withLock { () -> Bool in
            guard tasks.first === record else {
                record.held.append(update)
                return false
            }
            return true
        }
        if now { output.yield(update) }
    }

    /// A task ended: its final (or an empty final when it heard no speech)
    /// and the commit through its end follow its other updates; any other
    /// error fails the stream (a cancellation is the backend's own).
    /// Delegate calls of all tasks arrive on the recognizer's one serial
    /// queue, so this and `deliver` never interleave.
    func ended(_ record: TaskRecord, final: RecognizedSpan?, error: (any Error)?) {
        record.removeRecordingFile()
        if let error, !Self.isNoSpeech(error) {
            if !Self.isCancellation(error) { output.end(.failed(error)) }
            return
        }
        let isFirst = lock.withLock { () -> Bool in
            let end = record.endSeconds ?? streamSeconds
            let span = final ?? RecognizedSpan(startSeconds: record.startSeconds, endSeconds: end, text: "")
            record.held += [.final(span), .committed(throughSeconds: max(end, span.endSeconds))]
            record.hasEnded = true
            return tasks.first === record
        }
        if isFirst { deliverHeld() }
    }

    /// Delivers what the tasks at the front held back, removing those that
    /// ended, up to the first task still running; `finished` once the input
    /// has ended and every task has.
    private func deliverHeld() {
        while true {
            let (batch, next, done) = lock.withLock { () -> ([SessionUpdate], Bool, Bool) in
                guard let first = tasks.first else { return ([], false, finishing) }
                defer { first.held.removeAll() }
                if first.hasEnded { tasks.removeFirst() }
                return (first.held, first.hasEnded, false)
            }
            for update in batch { output.yield(update) }
            if done { output.end(.finished) }
            guard next else { return }
        }
    }

    static func isNoSpeech(_ error: any Error) -> Bool {
        let error = error as NSError
        return error.domain == "kAFAssistantErrorDomain" && error.code == 1110
    }

    static func isCancellation(_ error: any Error) -> Bool {
        let error = error as NSError
        return error.domain == "kLSRErrorDomain" && error.code == 301
    }
}
