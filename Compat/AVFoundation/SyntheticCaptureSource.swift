// A capture source that generates a signal, for `AVAudioEngine.InputSource.synthetic`.

/// Generates a signal in 20 ms periods, for `AVAudioEngine.InputSource.synthetic`.
final class SyntheticCaptureSource: AudioCaptureSource {
    let parameters: ALSAStreamParameters
    private let frameCount: Int?
    private let signal: @Sendable (Int, Int) -> Float
    private var nextFrame = 0

    /// A source of `frameCount` frames (endless when `nil`).
    init(rate: Int, channels: Int, frameCount: Int?, signal: @escaping @Sendable (Int, Int) -> Float) {
        parameters = ALSAStreamParameters(rate: max(1, rate), channels: channels, sampleFormat: .float32,
                                          periodFrames: max(1, rate / 50))
        self.frameCount = frameCount
        self.signal = signal
    }

    func open() throws { nextFrame = 0 }

    func read() -> CaptureRead {
        var frames = parameters.periodFrames
        if let frameCount {
            frames = min(frames, frameCount - nextFrame)
            if frames <= 0 { return .endOfInput }
        }
        let channels = parameters.channels
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            for channel in 0..<channels { samples[frame * channels + channel] = signal(nextFrame + frame, channel) }
        }
        nextFrame += frames
        return .samples(samples)
    }

    func close() {}
}
