// The legacy face for an hour, written as an app writes live recognition:
// an SFSpeechAudioBufferRecognitionRequest fed buffer after buffer from a
// tap thread, partial results on, and — since an hour is past the one-minute
// limit of a server-style task — the rolling mode, which finalizes each
// minute and keeps going. endAudio() at the end brings the one final result.

import AVFoundation
import Foundation
import Speech

enum LegacySoak {
    /// What the handler has seen, shared between the handler's queue and the feeder.
    private final class Progress: @unchecked Sendable {
        private let lock = NSLock()
        private var results = 0
        private var throughSeconds = 0.0
        private var finalText: String?
        private var failure: (any Error)?

        var resultCount: Int { lock.withLock { results } }
        /// The end of the latest result's last word, in seconds of request audio.
        var recognizedThrough: Double { lock.withLock { throughSeconds } }
        func record(_ result: SFSpeechRecognitionResult) {
            let end = result.bestTranscription.segments.last.map { $0.timestamp + $0.duration } ?? 0
            lock.withLock {
                results += 1
                throughSeconds = max(throughSeconds, end)
                if result.isFinal { finalText = result.bestTranscription.formattedString }
            }
        }
        func record(_ error: any Error) { lock.withLock { failure = error } }
        var outcome: (text: String?, error: (any Error)?) { lock.withLock { (finalText, failure) } }
    }

    static func run(audio: PacedAudio) async throws -> SoakReport {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")), recognizer.isAvailable else {
            throw SoakError("speech recognition for en-US is not available: run Scripts/setup.sh")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = true
        request.requiresOnDeviceRecognition = false      // server-style: the one-minute limit applies
        request.rollsOverAtRecognitionLimit = true       // ... and rolls over instead of stopping
        let progress = Progress()
        let clock = ContinuousClock()
        let started = clock.now
        let sampler = Sampler()

        let finished: Void = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let once = Once(continuation)
            let task = recognizer.recognitionTask(with: request) { result, error in
                if let result { progress.record(result) }
                if let error {
                    progress.record(error)
                    once.resume(throwing: error)
                } else if result?.isFinal == true {
                    once.resume()
                }
            }
            sampler.append(.take(audioSeconds: 0, wallSeconds: 0, resultCount: 0))
            let feeder = Thread {
                do {
                    let fed = try audio.play(deliver: { request.append($0) }, sample: { seconds in
                        sampler.append(.take(audioSeconds: seconds, wallSeconds: (clock.now - started).seconds,
                                             resultCount: progress.resultCount))
                    }, recognizedThrough: { progress.recognizedThrough })
                    sampler.noteFed(fed.audioSeconds, waited: fed.waitedSeconds)
                    request.endAudio()
                } catch {
                    task.cancel()
                    once.resume(throwing: error)
                }
            }
            feeder.start()
        }
        _ = finished
        let wall = (clock.now - started).seconds
        sampler.append(.take(audioSeconds: sampler.fedSeconds, wallSeconds: wall, resultCount: progress.resultCount))
        let outcome = progress.outcome
        if let error = outcome.error { throw error }
        let words = outcome.text?.split(separator: " ").count ?? 0
        return SoakReport(face: "legacy", samples: sampler.samples, words: words,
                          effectiveSpeed: sampler.fedSeconds / max(wall, 1), waitedSeconds: sampler.waitedSeconds)
    }
}

/// Resource samples taken from the feeder's thread, read at the end.
final class Sampler: @unchecked Sendable {
    private let lock = NSLock()
    private var taken: [ProcessSample] = []
    private var fed = 0.0
    private var waited = 0.0

    var samples: [ProcessSample] { lock.withLock { taken } }
    var fedSeconds: Double { lock.withLock { fed } }
    var waitedSeconds: Double { lock.withLock { waited } }
    func append(_ sample: ProcessSample) {
        lock.withLock { taken.append(sample) }
        // Printed as it is taken, so a soak that dies still leaves its figures.
        FileHandle.standardError.write(Data("SAMPLE \(sample.row)\n".utf8))
    }
    func noteFed(_ audioSeconds: Double, waited waitedSeconds: Double) {
        lock.withLock { fed = audioSeconds; waited = waitedSeconds }
    }
}

/// Resumes a continuation once, whichever of the handler or the feeder gets there first.
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, any Error>?

    init(_ continuation: CheckedContinuation<Void, any Error>) { self.continuation = continuation }
    func resume() { take()?.resume() }
    func resume(throwing error: any Error) { take()?.resume(throwing: error) }
    private func take() -> CheckedContinuation<Void, any Error>? {
        lock.withLock { defer { continuation = nil }; return continuation }
    }
}
