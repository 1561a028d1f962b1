// After: live audio with the modern face — buffers become AnalyzerInput in an
// AsyncStream; volatile results replace each other over their range, final
// results are not cumulative (each covers new audio) and are appended.

import AVFoundation
import Foundation
import Speech

enum After {
    static func transcribe(_ buffers: [AVAudioPCMBuffer]) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"),
                                            preset: .progressiveTranscription)
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        // The analyzer never converts buffers: convert to the format it asks for.
        guard let format = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]),
              let first = buffers.first, let converter = AVAudioConverter(from: first.format, to: format) else {
            throw ExampleError("no audio format to analyze in")
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(modules: [transcriber])

        let collector = Task {
            var finalized = AttributedString()
            for try await result in transcriber.results {
                if result.isFinal {
                    finalized += result.text
                } else {
                    // Volatile text replaces the previous volatile text.
                    print("VOLATILE: \(String((finalized + result.text).characters))")
                }
            }
            return finalized
        }
        try await analyzer.start(inputSequence: inputs)
        for buffer in buffers {
            guard let converted = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: buffer.frameLength * 2) else { continue }
            var supplied = false
            _ = converter.convert(to: converted, error: nil) { _, status in
                if supplied { status.pointee = .noDataNow; return nil }
                supplied = true
                status.pointee = .haveData
                return buffer
            }
            continuation.yield(AnalyzerInput(buffer: converted))
        }
        // endAudio() becomes: end the input, then finalize and finish.
        continuation.finish()
        try await analyzer.finalizeAndFinishThroughEndOfInput()
        let transcript = try await collector.value
        print("TRANSCRIPT: \(String(transcript.characters).trimmingCharacters(in: .whitespaces))")
    }
}
