import AVFoundation
import Foundation
import Testing

/// AVAudioConverter: resampling quality, the input-block protocol, channel
/// and sample-format conversion, and drift over long streams.
@Suite struct AVAudioConverterTests {
    private func format(_ common: AVAudioCommonFormat, _ rate: Double, _ channels: AVAudioChannelCount,
                        interleaved: Bool = false) -> AVAudioFormat {
        AVAudioFormat(commonFormat: common, sampleRate: rate, channels: channels, interleaved: interleaved)!
    }

    /// Converts a whole buffer in one call (input handed over once, then end of stream).
    private func convertWhole(_ converter: AVAudioConverter, _ input: AVAudioPCMBuffer) throws -> AVAudioPCMBuffer {
        let ratio = converter.outputFormat.sampleRate / converter.inputFormat.sampleRate
        let capacity = AVAudioFrameCount((Double(input.frameLength) * ratio).rounded(.up)) + 16
        let output = try #require(AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: capacity))
        var handedOver = false
        var error: NSError?
        let status = converter.convert(to: output, error: &error) { _, inputStatus in
            if handedOver { inputStatus.pointee = .endOfStream; return nil }
            handedOver = true
            inputStatus.pointee = .haveData
            return input
        }
        #expect(error == nil && status == .haveData)
        return output
    }

    @Test(arguments: [(48_000.0, 16_000.0), (16_000.0, 48_000.0), (44_100.0, 16_000.0)])
    func resampledSineKeepsFrequencyAndLevel(rates: (Double, Double)) throws {
        let (inputRate, outputRate) = rates
        let converter = try #require(AVAudioConverter(from: format(.pcmFormatFloat32, inputRate, 1),
                                                      to: format(.pcmFormatFloat32, outputRate, 1)))
        let frames = Int(inputRate)
        let input = AudioSignals.buffer(converter.inputFormat,
                                        planar: [AudioSignals.sine(frequency: 1_000, sampleRate: inputRate, count: frames)])
        let output = try convertWhole(converter, input)
        #expect(Int(output.frameLength) == Int(outputRate))
        let samples = AudioSignals.planar(output)[0]
        let middle = Array(samples[Int(outputRate * 0.1)..<Int(outputRate * 0.9)])
        #expect(abs(AudioSignals.frequency(of: middle, sampleRate: outputRate) - 1_000) < 0.01)
        #expect(abs(AudioSignals.rms(middle[...]) / (0.5 / 2.0.squareRoot()) - 1) < 0.002)
        // Aligned in time: output frame n is the input's sine at n / outputRate seconds.
        let expected = AudioSignals.sine(frequency: 1_000, sampleRate: outputRate, count: samples.count)
        let worst = (Int(outputRate * 0.1)..<Int(outputRate * 0.9)).map { abs(samples[$0] - expected[$0]) }.max() ?? 1
        #expect(worst < 0.002)
    }

    @Test func stereo48kToMono16kInt16StreamedMatchesWholeBuffer() throws {
        let source = format(.pcmFormatFloat32, 48_000, 2)
        let target = format(.pcmFormatInt16, 16_000, 1)
        let frames = 96_000
        let input = AudioSignals.buffer(source, planar: [
            AudioSignals.sine(frequency: 440, sampleRate: 48_000, count: frames, amplitude: 0.6),
            AudioSignals.sine(frequency: 3_000, sampleRate: 48_000, count: frames, amplitude: 0.3),
        ])
        let whole = AudioSignals.planar(try convertWhole(try #require(AVAudioConverter(from: source, to: target)), input))[0]

        // The same audio in 100 ms tap-sized buffers, each handed over once.
        let streaming = try #require(AVAudioConverter(from: source, to: target))
        var streamed: [Float] = []
        let chunkFrames = 4_800
        let output = try #require(AVAudioPCMBuffer(pcmFormat: target, frameCapacity: 1_600))
        let inputPlanes = AudioSignals.planar(input)
        for start in stride(from: 0, to: frames, by: chunkFrames) {
            let chunk = AudioSignals.buffer(source, planar: inputPlanes.map { Array($0[start..<start + chunkFrames]) })
            var consumed = false
            var error: NSError?
            let status = streaming.convert(to: output, error: &error) { _, inputStatus in
                if consumed { inputStatus.pointee = .noDataNow; return nil }
                consumed = true
                inputStatus.pointee = .haveData
                return chunk
            }
            #expect(status != .error && error == nil)
            streamed += AudioSignals.planar(output)[0]
        }
        var status = AVAudioConverterOutputStatus.haveData
        while status == .haveData {
            status = streaming.convert(to: output, error: nil) { _, inputStatus in
                inputStatus.pointee = .endOfStream
                return nil
            }
            streamed += AudioSignals.planar(output)[0]
        }
        #expect(status == .endOfStream)
        #expect(streamed.count == 32_000 && whole.count == 32_000)
        let worst = zip(streamed, whole).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= 1.0 / 32_768)
        // The default channel map keeps the left channel (440 Hz) only.
        #expect(abs(AudioSignals.frequency(of: Array(whole[1_000..<31_000]), sampleRate: 16_000) - 440) < 0.05)
    }

    @Test(arguments: [AVAudioConverterPrimeMethod.normal, .none])
    func longStreamDoesNotDrift(primeMethod: AVAudioConverterPrimeMethod) throws {
        let source = format(.pcmFormatFloat32, 44_100, 1)
        let converter = try #require(AVAudioConverter(from: source, to: format(.pcmFormatFloat32, 16_000, 1)))
        converter.primeMethod = primeMethod
        let chunkFrames = 4_410 + 17 // deliberately not a multiple of anything
        let chunkCount = 3_000 // about five minutes of audio
        let output = try #require(AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: 1_700))
        var inputTotal = 0
        var outputTotal = 0
        let phaseStep = 2 * Double.pi * 250 / 44_100
        var lags: [Int] = []
        var lastOutput: [Float] = []
        for index in 0..<chunkCount {
            let chunk = try #require(AVAudioPCMBuffer(pcmFormat: source, frameCapacity: AVAudioFrameCount(chunkFrames)))
            let data = try #require(chunk.floatChannelData)[0]
            for frame in 0..<chunkFrames { data[frame] = Float(0.5 * sin(phaseStep * Double(inputTotal + frame))) }
            chunk.frameLength = AVAudioFrameCount(chunkFrames)
            inputTotal += chunkFrames
            var consumed = false
            let status = converter.convert(to: output, error: nil) { _, inputStatus in
                if consumed { inputStatus.pointee = .noDataNow; return nil }
                consumed = true
                inputStatus.pointee = .haveData
                return chunk
            }
            #expect(status == .inputRanDry || status == .haveData)
            outputTotal += Int(output.frameLength)
            let expected = Int((Double(inputTotal) * 16_000 / 44_100).rounded())
            lags.append(expected - outputTotal)
            if index == chunkCount - 1 { lastOutput = AudioSignals.planar(output)[0] }
        }
        // Latency mode keeps the total exact from the start; normal mode holds
        // back soxr's block-sized look-ahead (under 50 ms), which never grows.
        if primeMethod == .none {
            #expect(lags.allSatisfy { $0 == 0 }, "\(lags.filter { $0 != 0 }.prefix(20)) of \(lags.count)")
        } else {
            #expect(lags.allSatisfy { $0 >= 0 && $0 < 800 })
            #expect(lags.suffix(300).max()! <= lags.prefix(300).max()!)
        }
        if primeMethod == .normal {
            // The last buffer still lines up with the input's clock: no drift in time.
            let endFrame = outputTotal
            let startFrame = endFrame - lastOutput.count
            let worst = lastOutput.indices.map { offset -> Float in
                let expected = Float(0.5 * sin(2 * .pi * 250 * Double(startFrame + offset) / 16_000))
                return abs(lastOutput[offset] - expected)
            }.max() ?? 1
            #expect(worst < 0.002)
        }
        var status = AVAudioConverterOutputStatus.haveData
        while status == .haveData {
            status = converter.convert(to: output, error: nil) { _, inputStatus in
                inputStatus.pointee = .endOfStream
                return nil
            }
            outputTotal += Int(output.frameLength)
        }
        #expect(outputTotal == Int((Double(inputTotal) * 16_000 / 44_100).rounded()))
    }

    @Test func simpleConversionChangesTypeAndChannels() throws {
        let source = format(.pcmFormatFloat32, 16_000, 2, interleaved: true)
        let target = format(.pcmFormatInt16, 16_000, 1)
        let converter = try #require(AVAudioConverter(from: source, to: target))
        let input = AudioSignals.buffer(source, planar: [[0.5, -0.25, 1.0], [0.1, 0.1, 0.1]])
        let output = try #require(AVAudioPCMBuffer(pcmFormat: target, frameCapacity: 3))
        try converter.convert(to: output, from: input)
        let data = try #require(output.int16ChannelData)[0]
        #expect(output.frameLength == 3 && data[0] == 16_384 && data[1] == -8_192 && data[2] == 32_767)
        converter.downmix = true
        try converter.convert(to: output, from: input)
        #expect(data[0] == 9_830 && data[1] == -2_458)

        let upmix = try #require(AVAudioConverter(from: format(.pcmFormatFloat32, 16_000, 1), to: format(.pcmFormatFloat32, 16_000, 2)))
        let stereo = try #require(AVAudioPCMBuffer(pcmFormat: upmix.outputFormat, frameCapacity: 2))
        try upmix.convert(to: stereo, from: AudioSignals.buffer(upmix.inputFormat, planar: [[0.25, 0.5]]))
        #expect(AudioSignals.planar(stereo) == [[0.25, 0.5], [0.25, 0.5]])
    }

    @Test func simpleConversionRefusesRateChangesAndSmallBuffers() throws {
        let converter = try #require(AVAudioConverter(from: format(.pcmFormatFloat32, 48_000, 1), to: format(.pcmFormatFloat32, 16_000, 1)))
        let input = AudioSignals.buffer(converter.inputFormat, planar: [[0, 0, 0]])
        let output = try #require(AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: 10))
        let rateError = try #require(throws: NSError.self) { try converter.convert(to: output, from: input) }
        #expect(rateError.code == Int(kAudioConverterErr_FormatNotSupported))
        let same = try #require(AVAudioConverter(from: converter.inputFormat, to: converter.inputFormat))
        let tiny = try #require(AVAudioPCMBuffer(pcmFormat: same.outputFormat, frameCapacity: 2))
        let sizeError = try #require(throws: NSError.self) { try same.convert(to: tiny, from: input) }
        #expect(sizeError.code == Int(kAudio_ParamError))
        #expect(AVAudioConverter(from: AVAudioFormat(settings: [AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: 16_000,
                                                                AVNumberOfChannelsKey: 1])!, to: converter.outputFormat) == nil)
    }

    @Test func endOfStreamIsStickyUntilReset() throws {
        let converter = try #require(AVAudioConverter(from: format(.pcmFormatFloat32, 48_000, 1), to: format(.pcmFormatFloat32, 16_000, 1)))
        let input = AudioSignals.buffer(converter.inputFormat,
                                        planar: [AudioSignals.sine(frequency: 100, sampleRate: 48_000, count: 4_800)])
        #expect(try convertWhole(converter, input).frameLength == 1_600)
        let output = try #require(AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: 1_600))
        var asked = false
        let status = converter.convert(to: output, error: nil) { _, inputStatus in
            asked = true
            inputStatus.pointee = .haveData
            return input
        }
        #expect(status == .endOfStream && !asked && output.frameLength == 0)
        converter.reset()
        #expect(try convertWhole(converter, input).frameLength == 1_600)
    }

    @Test func wrongInputFormatReportsAnError() throws {
        let converter = try #require(AVAudioConverter(from: format(.pcmFormatFloat32, 48_000, 1), to: format(.pcmFormatInt16, 16_000, 1)))
        let wrong = AudioSignals.buffer(format(.pcmFormatFloat32, 44_100, 1), planar: [[0, 0]])
        let output = try #require(AVAudioPCMBuffer(pcmFormat: converter.outputFormat, frameCapacity: 10))
        var error: NSError?
        let status = converter.convert(to: output, error: &error) { _, inputStatus in
            inputStatus.pointee = .haveData
            return wrong
        }
        #expect(status == .error && error?.code == Int(kAudioConverterErr_FormatNotSupported))
    }
}
