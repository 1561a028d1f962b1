// The modern face, stopped while it analyzes.

import AVFoundation
import Foundation
import Speech

enum ModernStopPatterns {
    /// A live analyzer fed in real time; `cancelAndFinishNow()` mid-decode, then `exit(0)`.
    static func cancelThenExit(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), transcriptionOptions: [],
                                            reportingOptions: [.volatileResults], attributeOptions: [])
        let (inputs, continuation) = AsyncStream<AnalyzerInput>.makeStream()
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        try await analyzer.start(inputSequence: inputs)
        let reader = Task { for try await _ in transcriber.results {} }
        let file = try AVAudioFile(forReading: url)
        let format = AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: 16_000, channels: 1, interleaved: false)!
        let converter = AVAudioConverter(from: file.processingFormat, to: format)!
        try await feedInRealTime(url, seconds: 4) { buffer in
            let out = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 4_096)!
            var given = false
            _ = converter.convert(to: out, error: nil) { _, status in
                if given { status.pointee = .noDataNow; return nil }
                given = true
                status.pointee = .haveData
                return buffer
            }
            continuation.yield(AnalyzerInput(buffer: out))
        }
        continuation.finish()
        Task { try? await analyzer.finalizeAndFinishThroughEndOfInput() }
        try await Task.sleep(nanoseconds: 300_000_000)
        await analyzer.cancelAndFinishNow()
        _ = reader
        exit(0)
    }

    /// `exit(0)` from the results loop at the first result, while the analyzer decodes.
    static func exitInResults(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), transcriptionOptions: [],
                                            reportingOptions: [.volatileResults], attributeOptions: [])
        let analyzer = try await SpeechAnalyzer(inputAudioFile: try AVAudioFile(forReading: url),
                                                modules: [transcriber], finishAfterFile: true)
        for try await _ in transcriber.results { exit(0) }
        _ = analyzer
        throw SampleError("no result arrived")
    }
}

struct SampleError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
