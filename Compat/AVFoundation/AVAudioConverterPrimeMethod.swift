// The small value types around AVAudioConverter: priming and the input/output
// status codes of the block-based conversion (API.md §2.9). They are kept in
// one file because each is a few lines long.

/// How a sample-rate converter is primed with context before the first
/// output frame.
public enum AVAudioConverterPrimeMethod: Int, @unchecked Sendable {
    /// Prime with leading and trailing input frames.
    case pre = 0
    /// Prime with trailing frames only; leading frames are assumed silent
    /// ("zero latency").
    case normal = 1
    /// No priming: leading and trailing frames are assumed silent
    /// ("latency mode").
    case none = 2
}

/// How many leading and trailing frames priming uses.
public struct AVAudioConverterPrimeInfo: Sendable, Equatable {
    /// Frames of context before the first output frame.
    public var leadingFrames: AVAudioFrameCount
    /// Frames of context after the last output frame.
    public var trailingFrames: AVAudioFrameCount

    /// Creates prime information with no frames.
    public init() {
        leadingFrames = 0
        trailingFrames = 0
    }

    /// Creates prime information with the given frame counts.
    public init(leadingFrames: AVAudioFrameCount, trailingFrames: AVAudioFrameCount) {
        self.leadingFrames = leadingFrames
        self.trailingFrames = trailingFrames
    }
}

/// What an input block reports alongside the buffer it returns.
public enum AVAudioConverterInputStatus: Int, @unchecked Sendable {
    /// The returned buffer holds input.
    case haveData = 0
    /// No input is available now; more may come later.
    case noDataNow = 1
    /// The input has ended; the converter drains what it holds.
    case endOfStream = 2
}

/// The outcome of `convert(to:error:withInputFrom:)`.
public enum AVAudioConverterOutputStatus: Int, @unchecked Sendable {
    /// The output buffer holds converted data.
    case haveData = 0
    /// The input block had no data now; the output may be partly filled.
    case inputRanDry = 1
    /// The input ended and everything has been drained.
    case endOfStream = 2
    /// Conversion failed; the error parameter says why.
    case error = 3
}
