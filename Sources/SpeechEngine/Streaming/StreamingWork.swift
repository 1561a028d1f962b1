import Foundation

/// The decoding work a stream did, counted by the pipeline itself in audio
/// seconds rather than wall time: what it decoded and encoded, and how much
/// of it came after the end of input — the part a user waits for. Wall time
/// swings with the machine's load; these figures do not, so tests assert on
/// them and benchmarks report them beside the latencies.
public struct StreamingWork: Sendable, Hashable, Encodable {
    /// Accurate-model passes (commits, agreement passes, the final ones).
    public var accuratePasses = 0
    /// Audio the accurate passes decoded, summed over passes, in seconds.
    public var accurateAudioSeconds = 0.0
    /// Encoder windows the accurate passes ran, summed, in seconds (30 per full window).
    public var accurateEncodedSeconds = 0.0
    /// Fast-model (volatile) passes.
    public var fastPasses = 0
    /// Audio the fast passes decoded, summed, in seconds.
    public var fastAudioSeconds = 0.0
    /// Encoder windows the fast passes ran, summed, in seconds.
    public var fastEncodedSeconds = 0.0
    /// Audio decoded by the passes that ran after the end of input (`finish`), in seconds.
    public var audioAfterEndOfInputSeconds = 0.0
    /// The longest audio any one such pass decoded after the end of input, in seconds.
    public var longestPassAfterEndOfInputSeconds = 0.0
    /// Words committed while speech went on, before an endpoint, by prefix agreement.
    public var wordsCommittedByAgreement = 0

    public init() {}

    /// Counts one pass over `audioSeconds` of audio with an encoder window of `encodedSeconds`.
    mutating func record(accurate: Bool, audioSeconds: Double, encodedSeconds: Double, afterEndOfInput: Bool) {
        if accurate {
            accuratePasses += 1
            accurateAudioSeconds += audioSeconds
            accurateEncodedSeconds += encodedSeconds
        } else {
            fastPasses += 1
            fastAudioSeconds += audioSeconds
            fastEncodedSeconds += encodedSeconds
        }
        if afterEndOfInput {
            audioAfterEndOfInputSeconds += audioSeconds
            longestPassAfterEndOfInputSeconds = max(longestPassAfterEndOfInputSeconds, audioSeconds)
        }
    }
}
