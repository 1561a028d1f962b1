import AVFoundation
import Foundation

/// Synthetic signals, buffer helpers and measurements for the compat tests.
enum AudioSignals {
    /// `count` samples of a sine at `frequency` Hz with peak `amplitude`.
    static func sine(frequency: Double, sampleRate: Double, count: Int, amplitude: Double = 0.5,
                     phase: Double = 0) -> [Float] {
        (0..<count).map { Float(amplitude * sin(2 * .pi * frequency * Double($0) / sampleRate + phase)) }
    }

    /// A buffer in `format` holding planar Float samples (converted to the
    /// format's sample type through the public channel-data pointers).
    static func buffer(_ format: AVAudioFormat, planar: [[Float]]) -> AVAudioPCMBuffer {
        let frames = planar.first?.count ?? 0
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(frames))!
        let stride = buffer.stride
        for (channel, samples) in planar.enumerated() {
            for (frame, value) in samples.enumerated() {
                let index = frame * stride
                if let data = buffer.floatChannelData { data[channel][index] = value }
                if let data = buffer.int16ChannelData {
                    data[channel][index] = Int16(max(-32_768, min(32_767, (Double(value) * 32_768).rounded())))
                }
                if let data = buffer.int32ChannelData {
                    data[channel][index] = Int32(max(-2_147_483_648, min(2_147_483_647, (Double(value) * 2_147_483_648).rounded())))
                }
            }
        }
        buffer.frameLength = AVAudioFrameCount(frames)
        return buffer
    }

    /// The valid frames of a buffer as planar Floats (integers scaled to ±1).
    static func planar(_ buffer: AVAudioPCMBuffer) -> [[Float]] {
        let channels = Int(buffer.format.channelCount)
        let stride = buffer.stride
        return (0..<channels).map { channel in
            (0..<Int(buffer.frameLength)).map { frame -> Float in
                let index = frame * stride
                if let data = buffer.floatChannelData { return data[channel][index] }
                if let data = buffer.int16ChannelData { return Float(data[channel][index]) / 32_768 }
                if let data = buffer.int32ChannelData { return Float(Double(data[channel][index]) / 2_147_483_648) }
                return .nan
            }
        }
    }

    /// The frequency of a sine estimated from interpolated upward zero
    /// crossings (accurate to a small fraction of a hertz over many periods).
    static func frequency(of samples: [Float], sampleRate: Double) -> Double {
        var crossings: [Double] = []
        for index in 1..<samples.count where samples[index - 1] < 0 && samples[index] >= 0 {
            let fraction = Double(-samples[index - 1]) / Double(samples[index] - samples[index - 1])
            crossings.append(Double(index - 1) + fraction)
        }
        guard let first = crossings.first, let last = crossings.last, crossings.count > 1 else { return 0 }
        return Double(crossings.count - 1) * sampleRate / (last - first)
    }

    /// The root-mean-square level of samples.
    static func rms(_ samples: ArraySlice<Float>) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("compat-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A clip of the shared corpus (read in place), e.g. `audio/pocketsphinx/ps_cards_002.wav`.
    static func corpusClip(_ relativePath: String) -> URL {
        let root = ProcessInfo.processInfo.environment["SPEECHCOMPAT_SHARED"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared")
        return root.appendingPathComponent("corpus").appendingPathComponent(relativePath)
    }
}
