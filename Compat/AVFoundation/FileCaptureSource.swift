// A capture source that plays an audio file, for `AVAudioEngine.InputSource.file`.

/// Reads a file in 20 ms periods as interleaved Float samples.
final class FileCaptureSource: AudioCaptureSource {
    private let url: URL
    private var file: AVAudioFile?
    private var buffer: AVAudioPCMBuffer?
    private(set) var parameters = ALSAStreamParameters(rate: 48_000, channels: 1, sampleFormat: .float32, periodFrames: 960)

    /// A source for a file; nothing is opened yet.
    init(url: URL) { self.url = url }

    func open() throws {
        let opened = try AVAudioFile(forReading: url)
        let format = opened.processingFormat
        let rate = Int(format.sampleRate.rounded())
        parameters = ALSAStreamParameters(rate: rate, channels: Int(format.channelCount), sampleFormat: .float32,
                                          periodFrames: max(1, rate / 50))
        buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(parameters.periodFrames))
        file = opened
    }

    func read() -> CaptureRead {
        guard let file, let buffer else {
            return .failure(AudioError.make(kAudioHardwareNotRunningError, "The input file \(url.path) is not open."))
        }
        do {
            try file.read(into: buffer)
        } catch {
            return .failure(error as NSError)
        }
        guard buffer.frameLength > 0 else { return .endOfInput }
        let channels = parameters.channels
        let planar = buffer.planarFloats()
        var samples = [Float](repeating: 0, count: Int(buffer.frameLength) * channels)
        for channel in 0..<channels {
            for frame in 0..<Int(buffer.frameLength) { samples[frame * channels + channel] = planar[channel][frame] }
        }
        return .samples(samples)
    }

    func close() {
        file?.close()
        file = nil
        buffer = nil
    }
}
