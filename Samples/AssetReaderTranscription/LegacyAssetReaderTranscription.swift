// The legacy face over AVAssetReader: decode the audio track to 16 kHz mono
// 16-bit PCM, look at each sample buffer's samples through its AudioBufferList
// (peak level), and append the buffers to a buffer recognition request.

import AVFoundation
import CoreMedia
import Foundation
import Speech

enum LegacyAssetReaderTranscription {
    static func run(_ url: URL) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")), recognizer.isAvailable else {
            throw SampleError("speech recognition for en-US is not available (speech assets install whisper-base)")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = false
        request.requiresOnDeviceRecognition = true

        let asset = AVURLAsset(url: url)
        let duration = try await asset.load(.duration)
        guard let track = try await asset.loadTracks(withMediaType: .audio).first else {
            throw SampleError("\(url.lastPathComponent) has no audio track")
        }
        let reader = try AVAssetReader(asset: asset)
        let outputSettings: [String: Any] = [
            AVFormatIDKey: kAudioFormatLinearPCM,
            AVLinearPCMBitDepthKey: 16,
            AVLinearPCMIsFloatKey: false,
            AVLinearPCMIsBigEndianKey: false,
            AVLinearPCMIsNonInterleaved: false,
            AVSampleRateKey: 16_000,
            AVNumberOfChannelsKey: 1,
        ]
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: outputSettings)
        output.alwaysCopiesSampleData = false
        guard reader.canAdd(output) else { throw SampleError("the reader cannot take a track output") }
        reader.add(output)
        guard reader.startReading() else {
            throw reader.error ?? SampleError("the reader did not start")
        }

        let result = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SFSpeechRecognitionResult, Error>) in
            recognizer.recognitionTask(with: request) { result, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let result, result.isFinal {
                    continuation.resume(returning: result)
                }
            }
            var sampleCount = 0
            var peak: Int16 = 0
            var end = CMTime.zero
            while reader.status == .reading, let sampleBuffer = output.copyNextSampleBuffer() {
                var audioBufferList = AudioBufferList()
                var blockBuffer: CMBlockBuffer?
                let status = CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
                    sampleBuffer,
                    bufferListSizeNeededOut: nil,
                    bufferListOut: &audioBufferList,
                    bufferListSize: MemoryLayout<AudioBufferList>.size,
                    blockBufferAllocator: nil,
                    blockBufferMemoryAllocator: nil,
                    flags: kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment,
                    blockBufferOut: &blockBuffer)
                guard status == noErr else {
                    print("SKIPPED: a sample buffer without an audio buffer list (\(status))")
                    continue
                }
                withUnsafeMutablePointer(to: &audioBufferList) { list in
                    for buffer in UnsafeMutableAudioBufferListPointer(list) {
                        guard let data = buffer.mData?.assumingMemoryBound(to: Int16.self) else { continue }
                        let samples = UnsafeBufferPointer(start: data, count: Int(buffer.mDataByteSize) / MemoryLayout<Int16>.size)
                        peak = max(peak, samples.map { $0 == .min ? .max : abs($0) }.max() ?? 0)
                    }
                }
                sampleCount += CMSampleBufferGetNumSamples(sampleBuffer)
                end = CMTimeRangeGetEnd(CMTimeRange(start: CMSampleBufferGetPresentationTimeStamp(sampleBuffer),
                                                    duration: CMSampleBufferGetDuration(sampleBuffer)))
                request.appendAudioSampleBuffer(sampleBuffer)
            }
            print(String(format: "READ: %d samples, %.3f s of %.3f s, peak %d, status %d", sampleCount, end.seconds,
                         duration.seconds, Int(peak), reader.status.rawValue))
            request.endAudio()
        }
        guard reader.status == .completed else {
            throw reader.error ?? SampleError("the reader stopped before the end (status \(reader.status.rawValue))")
        }
        print("TRANSCRIPT: \(result.bestTranscription.formattedString)")
        for segment in result.bestTranscription.segments {
            print(String(format: "WORD %.3f %.3f %.3f %@", segment.timestamp, segment.duration, segment.confidence,
                         segment.substring))
        }
    }
}
