import AVFoundation
import Foundation
import Testing

/// AVAssetReader and AVAssetReaderTrackOutput over real files: the samples
/// match AVAudioFile's, output settings are honoured (depth, float,
/// interleaving, rate, channels), time stamps are continuous, and the status
/// machine follows Apple's.
@Suite struct AVAssetReaderTests {
    private let clip = AudioSignals.corpusClip("audio/pocketsphinx/ps_goforward.wav")

    /// Reads everything an output gives; the sample buffers and the reader's final status.
    private func readAll(_ url: URL, settings: [String: Any]?,
                         range: CMTimeRange? = nil) async throws -> ([CMSampleBuffer], AVAssetReader.Status) {
        let asset = AVURLAsset(url: url)
        let track = try #require(try await asset.loadTracks(withMediaType: .audio).first)
        let reader = try AVAssetReader(asset: asset)
        if let range { reader.timeRange = range }
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: settings)
        #expect(reader.canAdd(output))
        reader.add(output)
        #expect(!reader.canAdd(output))
        #expect(reader.status == .unknown)
        #expect(reader.startReading(), "\(String(describing: reader.error))")
        #expect(reader.status == .reading)
        var buffers: [CMSampleBuffer] = []
        while let buffer = output.copyNextSampleBuffer() { buffers.append(buffer) }
        return (buffers, reader.status)
    }

    private func fileSamples(_ url: URL) throws -> [Int16] {
        let file = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: true)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AVAudioFrameCount(file.length)))
        try file.read(into: buffer)
        return Array(UnsafeBufferPointer(start: buffer.int16ChannelData![0], count: Int(buffer.frameLength)))
    }

    private func int16s(_ buffers: [CMSampleBuffer]) throws -> [Int16] {
        try buffers.flatMap { buffer in
            try buffer.withAudioBufferList { list, _ in
                Array(UnsafeBufferPointer(start: list[0].mData?.assumingMemoryBound(to: Int16.self),
                                          count: Int(list[0].mDataByteSize) / 2))
            }
        }
    }

    @Test func nilSettingsGiveTheFilesOwnSamplesWithContinuousTimes() async throws {
        let (buffers, status) = try await readAll(clip, settings: nil)
        #expect(status == .completed)
        #expect(try int16s(buffers) == fileSamples(clip))
        var expectedStart = CMTime.zero
        for buffer in buffers {
            #expect(CMSampleBufferGetPresentationTimeStamp(buffer) == expectedStart)
            #expect(CMSampleBufferGetNumSamples(buffer) <= 8_192)
            expectedStart = CMTimeRangeGetEnd(CMTimeRange(start: buffer.presentationTimeStamp, duration: buffer.duration))
        }
        #expect(expectedStart == CMTime(value: 44_580, timescale: 16_000))
        let asbd = try #require(buffers.first?.formatDescription?.audioStreamBasicDescription)
        #expect(asbd.mBitsPerChannel == 16 && asbd.mFormatFlags & kAudioFormatFlagIsSignedInteger != 0)
    }

    @Test func compressedFilesDecodeLikeTheirSource() async throws {
        let folder = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let flac = folder.appendingPathComponent("clip.flac")
        let source = try AVAudioFile(forReading: clip)
        let whole = try #require(AVAudioPCMBuffer(pcmFormat: source.processingFormat, frameCapacity: AVAudioFrameCount(source.length)))
        try source.read(into: whole)
        let writer = try AVAudioFile(forWriting: flac, settings: [AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: 16_000,
                                                                 AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 16])
        try writer.write(from: whole)
        writer.close()
        // FLAC is lossless: 16-bit output settings give the WAV's samples back.
        let (buffers, status) = try await readAll(flac, settings: [AVFormatIDKey: kAudioFormatLinearPCM,
                                                                   AVLinearPCMBitDepthKey: 16])
        #expect(status == .completed)
        #expect(try int16s(buffers) == fileSamples(clip))
        // Without settings a compressed track comes decoded, as Float32.
        let (decoded, _) = try await readAll(flac, settings: nil)
        let pcm = try #require(decoded.first?.makeAudioPCMBuffer())
        #expect(pcm.format.commonFormat == .pcmFormatFloat32 && pcm.format.sampleRate == 16_000)
    }

    @Test func settingsChooseDepthLayoutRateAndChannels() async throws {
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 32,
                                       AVLinearPCMIsFloatKey: true, AVLinearPCMIsNonInterleaved: true,
                                       AVSampleRateKey: 8_000, AVNumberOfChannelsKey: 2]
        let (buffers, status) = try await readAll(clip, settings: settings)
        #expect(status == .completed)
        #expect(buffers.reduce(0) { $0 + $1.numSamples } == 22_290)
        let pcm = try #require(buffers.first?.makeAudioPCMBuffer())
        #expect(pcm.format.sampleRate == 8_000 && pcm.format.channelCount == 2 && pcm.format.isStandard)
        // A mono file played into two channels: the same samples in both.
        #expect(AudioSignals.planar(pcm)[0] == AudioSignals.planar(pcm)[1])
        #expect(buffers.last?.presentationTimeStamp.timescale == 8_000)
    }

    @Test func twentyFourBitSamplesArePacked() async throws {
        let (buffers, _) = try await readAll(clip, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVLinearPCMBitDepthKey: 24])
        let bytes = buffers.flatMap { [UInt8]($0.audioData) }
        #expect(bytes.count == 44_580 * 3)
        let reference = try fileSamples(clip)
        for index in stride(from: 0, to: reference.count, by: 997) {
            let value = Int32(bitPattern: UInt32(bytes[index * 3]) << 8 | UInt32(bytes[index * 3 + 1]) << 16
                              | UInt32(bytes[index * 3 + 2]) << 24) >> 16
            #expect(Int16(value) == reference[index])
        }
        #expect(buffers.first?.formatDescription?.audioStreamBasicDescription?.mBytesPerFrame == 3)
        // What appendAudioSampleBuffer(_:) gets: the same samples at 32 bits.
        let pcm = try #require(buffers.first?.makeAudioPCMBuffer())
        #expect(pcm.format.commonFormat == .pcmFormatInt32 && pcm.frameLength == 8_192)
        #expect((0..<8_192).allSatisfy { Int16(pcm.int32ChannelData![0][$0] >> 16) == reference[$0] })
    }

    @Test func timeRangeReadsOnlyThatPart() async throws {
        let range = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1))
        let (buffers, status) = try await readAll(clip, settings: nil, range: range)
        #expect(status == .completed)
        #expect(buffers.first?.presentationTimeStamp == CMTime(value: 8_000, timescale: 16_000))
        #expect(try int16s(buffers) == Array(fileSamples(clip)[8_000..<24_000]))
    }

    @Test func unsupportedSettingsFailAtStartWithAMessage() async throws {
        let asset = AVURLAsset(url: clip)
        let track = try #require(try await asset.loadTracks(withMediaType: .audio).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: [AVFormatIDKey: kAudioFormatMPEG4AAC])
        reader.add(output)
        #expect(!reader.startReading())
        #expect(reader.status == .failed)
        let error = try #require(reader.error as NSError?)
        #expect(error.domain == AVFoundationErrorDomain && error.localizedDescription.contains("kAudioFormatLinearPCM"))
        #expect(output.copyNextSampleBuffer() == nil)
    }

    @Test func cancellingStopsTheOutputs() async throws {
        let asset = AVURLAsset(url: clip)
        let track = try #require(try await asset.loadTracks(withMediaType: .audio).first)
        let reader = try AVAssetReader(asset: asset)
        let output = AVAssetReaderTrackOutput(track: track, outputSettings: nil)
        #expect(output.copyNextSampleBuffer() == nil) // not added yet
        reader.add(output)
        #expect(reader.startReading())
        #expect(output.copyNextSampleBuffer() != nil)
        reader.cancelReading()
        #expect(reader.status == .cancelled && output.copyNextSampleBuffer() == nil)
        let other = AVAssetReaderTrackOutput(track: try #require(try await AVURLAsset(url: clip).loadTracks(withMediaType: .audio).first),
                                             outputSettings: nil)
        #expect(!reader.canAdd(other))
    }
}
