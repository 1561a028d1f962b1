// The modern face over AVAssetReader: ask the analyzer for its audio format,
// have the track output decode straight into it, copy each sample buffer into
// an AVAudioPCMBuffer, and stream it as time-stamped AnalyzerInput.

import AVFoundation
import CoreMedia
import Foundation
import Speech

enum ModernAssetReaderTranscription {
    static func run(_ url: URL) async throws {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), transcriptionOptions: [],
                                            reportingOptions: [], attributeOptions: [.audioTimeRange, .transcriptionConfidence])
        if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await installation.downloadAndInstall()
        }
        guard let analyzerFormat = await SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith: [transcriber]) else {
            throw SampleError("no audio format suits the transcriber")
        }

        let asset = AVURLAsset(url: url)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        guard let track = tracks.first(where: { $0.mediaType == .audio }) else {
            throw SampleError("\(url.lastPathComponent) has no audio track")
        }
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: analyzerFormat.settings)
        reader.add(output)
        guard reader.startReading() else {
            throw reader.error ?? SampleError("the reader did not start")
        }

        let (inputSequence, inputBuilder) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let collector = Task {
            var finalized = AttributedString()
            for try await result in transcriber.results where result.isFinal { finalized += result.text }
            return finalized
        }
        try await analyzer.start(inputSequence: inputSequence)

        var buffers = 0
        while let sampleBuffer = output.copyNextSampleBuffer() {
            let frameCount = CMSampleBufferGetNumSamples(sampleBuffer)
            guard let pcmBuffer = AVAudioPCMBuffer(pcmFormat: analyzerFormat, frameCapacity: AVAudioFrameCount(frameCount))
            else { continue }
            pcmBuffer.frameLength = AVAudioFrameCount(frameCount)
            let status = CMSampleBufferCopyPCMDataIntoAudioBufferList(sampleBuffer, at: 0, frameCount: Int32(frameCount),
                                                                      into: pcmBuffer.mutableAudioBufferList)
            guard status == noErr else { throw SampleError("copying PCM out of a sample buffer failed (\(status))") }
            inputBuilder.yield(AnalyzerInput(buffer: pcmBuffer,
                                             bufferStartTime: CMSampleBufferGetPresentationTimeStamp(sampleBuffer)))
            buffers += 1
        }
        inputBuilder.finish()
        guard reader.status == .completed else {
            throw reader.error ?? SampleError("the reader stopped before the end (status \(reader.status.rawValue))")
        }
        print(String(format: "READ: %d buffers of %.3f s", buffers, duration.seconds))
        try await analyzer.finalizeAndFinishThroughEndOfInput()
        let transcript = try await collector.value
        print("TRANSCRIPT: \(String(transcript.characters).trimmingCharacters(in: .whitespaces))")
        for run in transcript.runs {
            guard let range = run.audioTimeRange else { continue }
            print(String(format: "WORD %.3f %.3f %.3f %@", range.start.seconds, range.duration.seconds,
                         run.transcriptionConfidence ?? 0,
                         String(transcript[run.range].characters).trimmingCharacters(in: .whitespaces)))
        }
    }
}
