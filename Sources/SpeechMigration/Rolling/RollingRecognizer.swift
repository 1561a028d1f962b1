import AVFoundation
import Foundation
import Speech

/// Long-form capture with the legacy face past its one-minute limit: audio
/// is recognized by consecutive `SFSpeechRecognitionTask`s, each given at
/// most `stretchSeconds` of audio, and presented as one continuous
/// transcript with nothing lost.
///
/// This is the restart-every-minute workaround apps write by hand
/// (API.md §3.1), done carefully: each cut is placed at the quietest 20 ms
/// in the last `lookbackSeconds` before the limit, so no word is split, and
/// every stretch's timestamps are offset to the start of the whole capture
/// (legacy timestamps restart at 0 in every task, §3.4).
///
/// ```swift
/// let rolling = RollingRecognizer(recognizer: recognizer)
/// inputNode.installTap(onBus: 0, bufferSize: 4096, format: format) { buffer, _ in rolling.append(buffer) }
/// …
/// rolling.endAudio()
/// let transcript = try await rolling.transcript()
/// ```
/// Partial results of the running stretch are reported to `onPartial`.
/// - Note: Unmapped: metadata and voice analytics are per stretch and are
///   not merged; a stretch with no speech (1110) contributes no text.
public final class RollingRecognizer: @unchecked Sendable {
    // @unchecked: all mutable state is behind `lock`.

    /// Seconds of audio given to each legacy task (below its 60 s limit).
    public let stretchSeconds: TimeInterval
    /// Seconds before the stretch limit searched for a quiet cut.
    public let lookbackSeconds: TimeInterval
    /// Called with the running text (finished stretches + current partial).
    public var onPartial: (@Sendable (String) -> Void)?

    let recognizer: SFSpeechRecognizer
    let configure: @Sendable (SFSpeechAudioBufferRecognitionRequest) -> Void
    let lock = NSLock()
    let converter = MonoAudioConverter()
    var request: SFSpeechAudioBufferRecognitionRequest?
    var held: [Float] = []
    var sentInStretch = 0
    var stretchStart = 0
    var stretches: [Int: RollingTranscript.Stretch] = [:]
    var partials: [Int: String] = [:]
    var started = 0
    var completed = 0
    var ended = false
    var failure: (any Error)?
    var waiters: [CheckedContinuation<RollingTranscript, any Error>] = []

    /// Creates a rolling recognizer over `recognizer`. `configure` sets up
    /// each stretch's request (partial results, punctuation, contextual strings…).
    public init(recognizer: SFSpeechRecognizer, stretchSeconds: TimeInterval = 55, lookbackSeconds: TimeInterval = 3,
                configure: @escaping @Sendable (SFSpeechAudioBufferRecognitionRequest) -> Void = { _ in }) {
        self.recognizer = recognizer
        self.stretchSeconds = max(2, stretchSeconds)
        self.lookbackSeconds = min(max(0.1, lookbackSeconds), self.stretchSeconds / 2)
        self.configure = configure
    }

    /// Appends captured audio in any PCM format. Ignored after `endAudio()`.
    public func append(_ buffer: AVAudioPCMBuffer) {
        lock.withLock {
            guard !ended, failure == nil else { return }
            do {
                held += Self.samples(of: try converter.convert(buffer))
                roll()
            } catch {
                failure = error
            }
        }
    }

    /// Ends the capture: the held audio goes to the last stretch, which then finishes.
    public func endAudio() {
        let finished: Bool = lock.withLock {
            guard !ended else { return false }
            ended = true
            if let rest = try? converter.finish() { held += Self.samples(of: rest) }
            send(held.count)
            request?.endAudio()
            request = nil
            return started == completed
        }
        if finished { resumeWaiters() }
    }

    /// Waits for every stretch's final result and returns the whole transcript.
    /// - Throws: the first error a stretch ended with (other than "no speech").
    public func transcript() async throws -> RollingTranscript {
        try await withCheckedThrowingContinuation { continuation in
            let done = lock.withLock { () -> Bool in
                waiters.append(continuation)
                return ended && started == completed
            }
            if done { resumeWaiters() }
        }
    }
}
