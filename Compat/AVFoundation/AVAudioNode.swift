// AVAudioNode: the base of the engine's processing graph (API.md §2.7).

/// A node in an `AVAudioEngine` graph, with input and output buses and
/// optional taps.
/// - Note: On Linux only the input node produces audio (from ALSA); other
///   nodes exist so that graph-building code compiles and runs, but render
///   nothing, and taps on them receive no buffers.
open class AVAudioNode: NSObject, @unchecked Sendable {
    /// The engine the node is attached to.
    open internal(set) weak var engine: AVAudioEngine?
    /// Taps installed on the node's output buses.
    let taps = TapRegistry()
    /// Formats set by `AVAudioEngine.connect`, by bus.
    var connectedInputFormats: [AVAudioNodeBus: AVAudioFormat] = [:]
    var connectedOutputFormats: [AVAudioNodeBus: AVAudioFormat] = [:]

    /// Creates a node.
    override init() { super.init() }

    /// The number of input buses.
    open var numberOfInputs: Int { 1 }
    /// The number of output buses.
    open var numberOfOutputs: Int { 1 }

    /// The format a bus's input uses: the connection's format, or the
    /// standard 48 kHz stereo format when unconnected.
    open func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        connectedInputFormats[bus] ?? AVAudioNode.unconnectedFormat
    }

    /// The format a bus's output uses: the connection's format, or the
    /// standard 48 kHz stereo format when unconnected.
    open func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        connectedOutputFormats[bus] ?? AVAudioNode.unconnectedFormat
    }

    /// The name of an input bus, if it has one.
    open func name(forInputBus bus: AVAudioNodeBus) -> String? { nil }
    /// The name of an output bus, if it has one.
    open func name(forOutputBus bus: AVAudioNodeBus) -> String? { nil }

    /// Clears the node's internal state (pending tap frames).
    open func reset() {
        for tap in taps.all { tap.discardPending() }
    }

    /// Installs a tap that receives the bus's audio in buffers of about
    /// `bufferSize` frames, on a background queue.
    ///
    /// `format: nil` means the bus's output format. The format may differ in
    /// sample type or channel count, but not in sample rate.
    /// - Precondition: No tap is on the bus yet, and `format`'s sample rate is
    ///   the bus's (Apple raises an exception in both cases; convert with
    ///   `AVAudioConverter` instead).
    /// - Note: On Linux `bufferSize` is honoured exactly (0 means 100 ms); the
    ///   last buffer before the input ends may be shorter.
    open func installTap(onBus bus: AVAudioNodeBus, bufferSize: AVAudioFrameCount, format: AVAudioFormat?,
                         block tapBlock: @escaping AVAudioNodeTapBlock) {
        let busFormat = outputFormat(forBus: bus)
        let tapFormat = format ?? busFormat
        precondition(tapFormat.sampleRate > 0 && tapFormat.channelCount > 0,
                     "required condition is false: IsFormatSampleRateAndChannelCountValid(format)")
        precondition(tapFormat.sampleRate == busFormat.sampleRate,
                     "required condition is false: format.sampleRate == hwFormat.sampleRate "
                     + "(tap \(tapFormat.sampleRate) Hz, bus \(busFormat.sampleRate) Hz; convert with AVAudioConverter)")
        let frames = bufferSize == 0 ? Int(busFormat.sampleRate / 10) : Int(bufferSize)
        taps.install(NodeTap(bus: bus, bufferFrames: frames, format: tapFormat, block: tapBlock))
    }

    /// Removes the tap on a bus; does nothing if there is none.
    open func removeTap(onBus bus: AVAudioNodeBus) {
        taps.remove(bus: bus)
    }

    /// The time of the last render cycle, if the engine is running.
    open var lastRenderTime: AVAudioTime? { nil }
    /// The node's processing latency in seconds.
    open var latency: TimeInterval { 0 }
    /// The latency from the node's output to the hardware, in seconds.
    open var outputPresentationLatency: TimeInterval { 0 }

    /// The format used when a bus has no connection.
    static let unconnectedFormat = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!
}

/// Volume and pan controls of nodes that mix.
/// - Note: Simplified on Linux to the two properties speech code touches.
public protocol AVAudioMixing: AnyObject {
    /// The mix volume, 0 to 1.
    var volume: Float { get set }
    /// The stereo pan, -1 (left) to 1 (right).
    var pan: Float { get set }
}
