// The modern face on the microphone: the input tap converts each buffer to
// the analyzer's format and yields it as AnalyzerInput; volatile results
// show the text as it is spoken; finalizing brings the final text.

import AVFoundation
import Foundation
import Speech

enum ModernLiveMicrophone {
    static func run(seconds: Double) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        let audioEngine = AVAudioEngine()
        let inputNode = audioEngine.inputNode
        let micFormat = inputNode.outputFormat(forBus: 0)
        guard let analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]),
              let converter = AVAudioConverter(from: micFormat, to: analyzerFormat) else {
            throw SampleError("the microphone's format cannot be converted for the analyzer")
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let collector = Task {
            var finalized = AttributedString()
            for try await result in transcriber.results {
                if result.isFinal { finalized += result.text } else { print("VOLATILE: \(String(result.text.characters))") }
            }
            return finalized
        }
        try await analyzer.start(inputSequence: inputs)

        let ratio = analyzerFormat.sampleRate / micFormat.sampleRate
        inputNode.installTap(onBus: 0, bufferSize: 1024, format: micFormat) { buffer, _ in
            let capacity = AVAudioFrameCount(Double(buffer.frameLength) * ratio) + 1_024
            guard let converted = AVAudioPCMBuffer(pcmFormat: analyzerFormat, frameCapacity: capacity) else { return }
            var supplied = false
            _ = converter.convert(to: converted, error: nil) { _, status in
                if supplied { status.pointee = .noDataNow; return nil }
                supplied = true
                status.pointee = .haveData
                return buffer
            }
            if converted.frameLength > 0 { continuation.yield(AnalyzerInput(buffer: converted)) }
        }
        audioEngine.prepare()
        try audioEngine.start()
        print("LISTENING for \(seconds) s")
        try await Task.sleep(for: .seconds(seconds))
        audioEngine.stop()
        inputNode.removeTap(onBus: 0)
        continuation.finish()
        try await analyzer.finalizeAndFinishThroughEndOfInput()
        let transcript = try await collector.value
        print("TRANSCRIPT: \(String(transcript.characters).trimmingCharacters(in: .whitespaces))")
    }
}
