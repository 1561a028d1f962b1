// The modern face for an hour, written as an app writes live transcription:
// a SpeechTranscriber in a SpeechAnalyzer started on an AsyncStream of
// AnalyzerInput, the tap thread converting each buffer to the analyzer's
// format and yielding it, volatile and final results read from
// `transcriber.results`. One analyzer runs the whole hour (no limit here).

import AVFoundation
import Foundation
import Speech

enum ModernSoak {
    /// Results seen by the reading task, counted for the samples.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var through = 0.0
        var value: Int { lock.withLock { count } }
        /// The end of the latest result's range, in seconds of input audio.
        var recognizedThrough: Double { lock.withLock { through } }
        func record(endingAt seconds: Double) { lock.withLock { count += 1; through = max(through, seconds) } }
    }

    static func run(audio: PacedAudio) async throws -> SoakReport {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        let fileFormat = try AVAudioFile(forReading: audio.url).processingFormat
        guard let analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]),
              AVAudioConverter(from: fileFormat, to: analyzerFormat) != nil else {
            throw SoakError("\(fileFormat) cannot be converted for the analyzer")
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let counter = Counter()
        let collector = Task {
            var finalized = ""
            for try await result in transcriber.results {
                counter.record(endingAt: result.range.end.seconds)
                if result.isFinal { finalized += String(result.text.characters) }
            }
            return finalized
        }
        let clock = ContinuousClock()
        let started = clock.now
        let sampler = Sampler()
        try await analyzer.start(inputSequence: inputs)
        sampler.append(.take(audioSeconds: 0, wallSeconds: 0, resultCount: 0))

        let ratio = analyzerFormat.sampleRate / fileFormat.sampleRate
        let fed = try await withCheckedThrowingContinuation {
            (done: CheckedContinuation<(audioSeconds: Double, waitedSeconds: Double), any Error>) in
            let feeder = Thread {
                // The converter belongs to the tap thread, as in an app's tap closure.
                guard let converter = AVAudioConverter(from: fileFormat, to: analyzerFormat) else {
                    return done.resume(throwing: SoakError("\(fileFormat) cannot be converted for the analyzer"))
                }
                do {
                    let seconds = try audio.play(deliver: { buffer in
                        let capacity = AVAudioFrameCount(Double(buffer.frameLength) * ratio) + 1_024
                        guard let converted = AVAudioPCMBuffer(pcmFormat: analyzerFormat, frameCapacity: capacity) else {
                            return
                        }
                        var supplied = false
                        _ = converter.convert(to: converted, error: nil) { _, status in
                            if supplied { status.pointee = .noDataNow; return nil }
                            supplied = true
                            status.pointee = .haveData
                            return buffer
                        }
                        if converted.frameLength > 0 { continuation.yield(AnalyzerInput(buffer: converted)) }
                    }, sample: { seconds in
                        sampler.append(.take(audioSeconds: seconds, wallSeconds: (clock.now - started).seconds,
                                             resultCount: counter.value))
                    }, recognizedThrough: { counter.recognizedThrough })
                    done.resume(returning: seconds)
                } catch {
                    done.resume(throwing: error)
                }
            }
            feeder.start()
        }
        continuation.finish()
        try await analyzer.finalizeAndFinishThroughEndOfInput()
        let text = try await collector.value
        let wall = (clock.now - started).seconds
        sampler.append(.take(audioSeconds: fed.audioSeconds, wallSeconds: wall, resultCount: counter.value))
        return SoakReport(face: "modern", samples: sampler.samples, words: text.split(separator: " ").count,
                          effectiveSpeed: fed.audioSeconds / max(wall, 1), waitedSeconds: fed.waitedSeconds)
    }
}
