// AVAudioConverter: sample-rate, sample-format and channel conversion between
// PCM formats (API.md §2.9). Rate changes go through libsoxr.

/// Converts PCM audio between formats: sample rate, sample type, channel
/// count and interleaving.
///
/// `convert(to:from:)` handles everything but rate changes;
/// `convert(to:error:withInputFrom:)` streams, pulling input from a block and
/// resampling as needed.
/// - Note: On Linux resampling is done by libsoxr (high quality by default).
///   Cumulative output never drifts: after the stream ends, the total output
///   is exactly `round(totalInput × outputRate / inputRate)` frames; with
///   `primeMethod = .none` every call keeps the output total at that value
///   (the signal is delayed by the filter's latency instead).
///   Samples are processed as Float32 internally.
open class AVAudioConverter: NSObject {
    /// The format of input buffers.
    public let inputFormat: AVAudioFormat
    /// The format of output buffers.
    public let outputFormat: AVAudioFormat
    /// For each output channel, the input channel it takes (-1 for silence).
    /// By default channels map one to one; extra output channels copy a mono
    /// input or stay silent; extra input channels are dropped.
    open var channelMap: [NSNumber]
    /// Whether to mix all input channels into fewer output channels instead of
    /// dropping the extra ones.
    open var downmix: Bool = false
    /// Whether to dither when reducing bit depth.
    /// - Note: Ignored on Linux (samples are rounded to nearest).
    open var dither: Bool = false
    /// The resampler quality, an `AVAudioQuality` raw value; takes effect at
    /// the next `reset()` or before the first conversion.
    open var sampleRateConverterQuality: Int = AVAudioQuality.high.rawValue
    /// The resampler algorithm name.
    /// - Note: Ignored on Linux: libsoxr is always used.
    open var sampleRateConverterAlgorithm: String?
    /// A codec magic cookie. Irrelevant for PCM.
    open var magicCookie: Data?
    /// How the resampler is primed; see `AVAudioConverterPrimeMethod`.
    /// - Note: On Linux `.pre` and `.normal` behave alike: the output is
    ///   aligned with the input and soxr holds back its look-ahead (up to
    ///   ~40 ms) until more input or the end of the stream. `.none` (latency
    ///   mode) starts the output with that much silence instead, so every call
    ///   delivers exactly `round(totalInput × ratio)` frames in total.
    open var primeMethod: AVAudioConverterPrimeMethod = .normal
    /// Priming frame counts.
    /// - Note: Informational on Linux; libsoxr decides its own look-ahead.
    open var primeInfo = AVAudioConverterPrimeInfo()

    /// Stream state: the resampler, queued output and running totals.
    var resampler: SoxrResampler?
    var queue = InterleavedSampleQueue(channels: 1)
    var inputFramesTotal: Int64 = 0
    var outputFramesQueuedTotal: Int64 = 0
    var inputEnded = false
    var streamStarted = false
    /// Frames handed out so far by the block-based conversion.
    var outputFramesDeliveredTotal: Int64 = 0

    /// Creates a converter between two PCM formats; `nil` if either is not a
    /// PCM common format.
    public init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat) {
        guard fromFormat.commonFormat != .otherFormat, toFormat.commonFormat != .otherFormat,
              fromFormat.sampleRate > 0, toFormat.sampleRate > 0 else { return nil }
        inputFormat = fromFormat
        outputFormat = toFormat
        let inputChannels = Int(fromFormat.channelCount)
        channelMap = (0..<Int(toFormat.channelCount)).map { channel in
            NSNumber(value: channel < inputChannels ? channel : (inputChannels == 1 ? 0 : -1))
        }
        super.init()
        queue = InterleavedSampleQueue(channels: Int(toFormat.channelCount))
    }

    /// Forgets all stream state (held-back frames, end of stream) so the
    /// converter can take a new stream.
    open func reset() {
        resampler = nil
        queue = InterleavedSampleQueue(channels: Int(outputFormat.channelCount))
        inputFramesTotal = 0
        outputFramesQueuedTotal = 0
        inputEnded = false
        streamStarted = false
        outputFramesDeliveredTotal = 0
    }

    /// Converts one buffer into another at the same sample rate (sample type,
    /// channel count and interleaving may differ).
    /// - Throws: `kAudioConverterErr_FormatNotSupported` if the rates differ
    ///   (use `convert(to:error:withInputFrom:)`) or the input buffer is not in
    ///   `inputFormat`; `kAudio_ParamError` if the output buffer is not in
    ///   `outputFormat` or too small.
    open func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
        try convertBuffer(to: outputBuffer, from: inputBuffer)
    }

    /// Converts a stream, pulling input from `inputBlock` until the output
    /// buffer is full, the block has no data now, or the stream ends.
    ///
    /// Returns `.haveData` when the buffer was filled (or holds the last
    /// frames of the stream), `.inputRanDry` when the block reported
    /// `.noDataNow` (the buffer may hold some frames), `.endOfStream` once
    /// everything has been delivered, and `.error` with `outError` set on
    /// failure. After the end of the stream, further calls return
    /// `.endOfStream` until `reset()`. The block is not `@Sendable` and does
    /// not escape, as in Apple's SDK.
    @discardableResult
    open func convert(to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer,
                      withInputFrom inputBlock: AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus {
        convertStream(to: outputBuffer, error: outError, withInputFrom: inputBlock)
    }

    /// Whether the formats differ in sample rate.
    var changesRate: Bool { inputFormat.sampleRate != outputFormat.sampleRate }

    /// The input's valid frames mapped to the output channels, interleaved.
    func mappedInterleaved(_ buffer: AVAudioPCMBuffer) -> [Float] {
        let frames = Int(buffer.frameLength)
        let outputChannels = Int(outputFormat.channelCount)
        let inputChannels = Int(inputFormat.channelCount)
        if outputChannels == 1 && !(downmix && inputChannels > 1) {
            // Mono output: one channel read straight into the result.
            let source = channelMap.first?.intValue ?? -1
            guard source >= 0, source < inputChannels else { return [Float](repeating: 0, count: frames) }
            return [Float](unsafeUninitializedCapacity: frames) { storage, count in
                if let base = storage.baseAddress {
                    buffer.readFloats(channel: source, startFrame: 0, frameCount: frames, into: base)
                }
                count = frames
            }
        }
        var planes = [[Float]](repeating: [], count: inputChannels)
        for channel in 0..<inputChannels {
            planes[channel] = [Float](unsafeUninitializedCapacity: frames) { storage, count in
                if let base = storage.baseAddress {
                    buffer.readFloats(channel: channel, startFrame: 0, frameCount: frames, into: base)
                }
                count = frames
            }
        }
        var result = [Float](repeating: 0, count: frames * outputChannels)
        if downmix && outputChannels < inputChannels {
            // Mix every input channel into each output channel, averaging.
            let gain = 1 / Float(inputChannels)
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<inputChannels { sum += planes[channel][frame] }
                for channel in 0..<outputChannels { result[frame * outputChannels + channel] = sum * gain }
            }
            return result
        }
        for channel in 0..<outputChannels {
            let source = channel < channelMap.count ? channelMap[channel].intValue : -1
            guard source >= 0, source < inputChannels else { continue }
            let plane = planes[source]
            for frame in 0..<frames { result[frame * outputChannels + channel] = plane[frame] }
        }
        return result
    }
}
