import AVFoundation
import Foundation
import Testing

/// AVAudioFile over libsndfile: formats, round trips, end of file and errors.
@Suite struct AVAudioFileTests {
    private let clip = AudioSignals.corpusClip("audio/pocketsphinx/ps_cards_002.wav")

    @Test func readsACorpusWAVInTheStandardProcessingFormat() throws {
        let file = try AVAudioFile(forReading: clip)
        #expect(file.fileFormat.commonFormat == .pcmFormatInt16 && file.fileFormat.sampleRate == 16_000)
        #expect(file.processingFormat.isStandard && file.processingFormat.channelCount == 1)
        #expect(file.length == 31_364)
        let floats = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 40_000))
        try file.read(into: floats)
        #expect(floats.frameLength == 31_364 && file.framePosition == file.length)
        // The same file read as Int16 gives the same samples, scaled by 2^15.
        let integers = try AVAudioFile(forReading: clip, commonFormat: .pcmFormatInt16, interleaved: false)
        let shorts = try #require(AVAudioPCMBuffer(pcmFormat: integers.processingFormat, frameCapacity: 40_000))
        try integers.read(into: shorts)
        let floatData = try #require(floats.floatChannelData)[0]
        let shortData = try #require(shorts.int16ChannelData)[0]
        #expect((0..<31_364).allSatisfy { floatData[$0] == Float(shortData[$0]) / 32_768 })
        #expect((0..<31_364).contains { shortData[$0] != 0 })
    }

    @Test func endOfFileGivesAnEmptyBuffer() throws {
        let file = try AVAudioFile(forReading: clip)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 10_000))
        var lengths: [AVAudioFrameCount] = []
        while file.framePosition < file.length {
            try file.read(into: buffer)
            lengths.append(buffer.frameLength)
        }
        #expect(lengths == [10_000, 10_000, 10_000, 1_364])
        try file.read(into: buffer)
        #expect(buffer.frameLength == 0)
        file.framePosition = 31_000
        try file.read(into: buffer, frameCount: 100)
        #expect(buffer.frameLength == 100 && file.framePosition == 31_100)
    }

    @Test(arguments: ["wav", "flac", "caf", "aiff"])
    func losslessRoundTripKeepsSamples(pathExtension: String) throws {
        let directory = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("round.\(pathExtension)")
        let format = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 22_050, channels: 2, interleaved: true))
        let left = AudioSignals.sine(frequency: 440, sampleRate: 22_050, count: 5_000)
        let right = AudioSignals.sine(frequency: 1_000, sampleRate: 22_050, count: 5_000, amplitude: 0.25)
        let original = AudioSignals.buffer(format, planar: [left, right])
        do {
            let writer = try AVAudioFile(forWriting: url, settings: format.settings, commonFormat: .pcmFormatInt16, interleaved: true)
            try writer.write(from: original)
            #expect(writer.length == 5_000)
        }
        let reader = try AVAudioFile(forReading: url, commonFormat: .pcmFormatInt16, interleaved: true)
        #expect(reader.length == 5_000 && reader.fileFormat.channelCount == 2)
        let copy = try #require(AVAudioPCMBuffer(pcmFormat: reader.processingFormat, frameCapacity: 6_000))
        try reader.read(into: copy)
        #expect(copy.frameLength == 5_000)
        let a = try #require(original.int16ChannelData)[0]
        let b = try #require(copy.int16ChannelData)[0]
        #expect((0..<10_000).allSatisfy { a[$0] == b[$0] })
    }

    @Test func floatWAVRoundTripIsExactFromTheStandardFormat() throws {
        let directory = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("float.wav")
        let settings: [String: Any] = [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: 16_000.0,
                                       AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 32, AVLinearPCMIsFloatKey: true]
        let samples = AudioSignals.sine(frequency: 123.4, sampleRate: 16_000, count: 3_000, amplitude: 0.9)
        let writer = try AVAudioFile(forWriting: url, settings: settings)
        #expect(writer.processingFormat.isStandard && writer.fileFormat.commonFormat == .pcmFormatFloat32)
        try writer.write(from: AudioSignals.buffer(writer.processingFormat, planar: [samples]))
        writer.close()
        #expect(throws: NSError.self) { try writer.write(from: AudioSignals.buffer(writer.processingFormat, planar: [samples])) }
        let reader = try AVAudioFile(forReading: url)
        #expect(reader.fileFormat.commonFormat == .pcmFormatFloat32)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: reader.processingFormat, frameCapacity: 3_000))
        try reader.read(into: buffer)
        #expect(AudioSignals.planar(buffer)[0] == samples)
    }

    @Test(arguments: ["ogg", "opus", "mp3"])
    func lossyRoundTripKeepsTheSignal(pathExtension: String) throws {
        let directory = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("lossy.\(pathExtension)")
        let rate = 48_000.0
        let samples = AudioSignals.sine(frequency: 440, sampleRate: rate, count: 48_000, amplitude: 0.5)
        let settings: [String: Any] = [AVSampleRateKey: rate, AVNumberOfChannelsKey: 1]
        let writer = try AVAudioFile(forWriting: url, settings: settings)
        try writer.write(from: AudioSignals.buffer(writer.processingFormat, planar: [samples]))
        writer.close()
        let reader = try AVAudioFile(forReading: url)
        #expect(reader.fileFormat.commonFormat == .otherFormat && reader.fileFormat.sampleRate == rate)
        // Encoders may pad (LAME adds ~1,600 frames), never drop much.
        #expect(reader.length >= 47_000 && reader.length <= 52_000)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: reader.processingFormat, frameCapacity: 60_000))
        try reader.read(into: buffer)
        // After a short read `length` is exact, so the usual loop ends.
        #expect(reader.framePosition == reader.length && Int64(buffer.frameLength) == reader.length)
        let decoded = Array(AudioSignals.planar(buffer)[0][4_000..<40_000])
        #expect(abs(AudioSignals.frequency(of: decoded, sampleRate: rate) - 440) < 0.5)
        #expect(abs(AudioSignals.rms(decoded[...]) - 0.5 / 2.0.squareRoot()) < 0.02)
    }

    @Test func filesEncodedBySoxDecodeToTheClipsSamples() throws {
        let directory = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let reference = try AVAudioFile(forReading: clip)
        let referenceBuffer = try #require(AVAudioPCMBuffer(pcmFormat: reference.processingFormat, frameCapacity: 40_000))
        try reference.read(into: referenceBuffer)
        let expected = AudioSignals.planar(referenceBuffer)[0]
        for pathExtension in ["flac", "ogg"] {
            let encoded = directory.appendingPathComponent("clip.\(pathExtension)")
            let sox = Process()
            sox.executableURL = URL(fileURLWithPath: "/usr/bin/sox")
            sox.arguments = [clip.path, encoded.path]
            try sox.run()
            sox.waitUntilExit()
            try #require(sox.terminationStatus == 0)
            let file = try AVAudioFile(forReading: encoded)
            let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 40_000))
            try file.read(into: buffer)
            let decoded = AudioSignals.planar(buffer)[0]
            #expect(decoded.count == expected.count)
            if pathExtension == "flac" {
                #expect(decoded == expected)
            } else {
                // Vorbis is lossy: the error stays well below the speech level.
                let error = zip(decoded, expected).map { $0 - $1 }
                #expect(AudioSignals.rms(error[...]) < AudioSignals.rms(expected[...]) * 0.2)
            }
        }
    }

    @Test func twentyFourBitWAVKeepsTwentyFourBits() throws {
        let directory = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("deep.wav")
        let settings: [String: Any] = [AVSampleRateKey: 48_000.0, AVNumberOfChannelsKey: 1, AVLinearPCMBitDepthKey: 24]
        let samples = AudioSignals.sine(frequency: 997, sampleRate: 48_000, count: 2_000, amplitude: 0.7)
        let writer = try AVAudioFile(forWriting: url, settings: settings)
        try writer.write(from: AudioSignals.buffer(writer.processingFormat, planar: [samples]))
        writer.close()
        let reader = try AVAudioFile(forReading: url)
        #expect(reader.fileFormat.commonFormat == .otherFormat && reader.fileFormat.settings[AVLinearPCMBitDepthKey] as? Int == 24)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: reader.processingFormat, frameCapacity: 2_000))
        try reader.read(into: buffer)
        let decoded = AudioSignals.planar(buffer)[0]
        let quantised = samples.map { Float((Double($0) * 8_388_608).rounded() / 8_388_608) }
        #expect(zip(decoded, quantised).allSatisfy { abs($0 - $1) <= 1e-7 })
    }

    @Test func missingFileIsATypedError() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/speech.wav")
        let error = try #require(throws: NSError.self) { try AVAudioFile(forReading: missing) }
        #expect(error.domain == NSOSStatusErrorDomain && error.code == Int(kAudioFileFileNotFoundError))
        #expect(error.localizedDescription.contains("does not exist"))
    }

    @Test func unsupportedFilesAreTypedErrors() throws {
        let directory = try AudioSignals.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("notes.wav")
        try Data("this is not audio".utf8).write(to: text)
        let readError = try #require(throws: NSError.self) { try AVAudioFile(forReading: text) }
        #expect(readError.domain == NSOSStatusErrorDomain)
        #expect([kAudioFileUnsupportedFileTypeError, kAudioFileInvalidFileError].map(Int.init).contains(readError.code))
        let settings: [String: Any] = [AVSampleRateKey: 16_000.0, AVNumberOfChannelsKey: 1]
        let writeError = try #require(throws: NSError.self) {
            try AVAudioFile(forWriting: directory.appendingPathComponent("out.m4a"), settings: settings)
        }
        #expect(writeError.code == Int(kAudioFileUnsupportedFileTypeError))
    }

    @Test func mismatchedBufferFormatThrows() throws {
        let file = try AVAudioFile(forReading: clip)
        let wrong = try #require(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1))
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: wrong, frameCapacity: 100))
        let error = try #require(throws: NSError.self) { try file.read(into: buffer) }
        #expect(error.code == Int(kAudio_ParamError))
        file.close()
        #expect(!file.isOpen)
        let closedError = try #require(throws: NSError.self) {
            try file.read(into: AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 10)!)
        }
        #expect(closedError.code == Int(kAudioFileNotOpenError))
    }
}
