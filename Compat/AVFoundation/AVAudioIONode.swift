// AVAudioIONode and its two concrete kinds, the input and output nodes
// (API.md §2.7).

/// A node connected to audio hardware.
open class AVAudioIONode: AVAudioNode, @unchecked Sendable {
    private var voiceProcessing = false

    /// The latency between the hardware and the node, in seconds.
    open var presentationLatency: TimeInterval { 0 }

    /// Whether voice processing (echo cancellation, AGC) is on.
    open var isVoiceProcessingEnabled: Bool { voiceProcessing }

    /// Turns voice processing on or off.
    /// - Note: Recorded but not applied on Linux: ALSA capture is unprocessed.
    open func setVoiceProcessingEnabled(_ enabled: Bool) throws {
        voiceProcessing = enabled
    }
}

/// The node that plays the engine's output.
/// - Note: On Linux nothing is played; the node keeps graph code working.
open class AVAudioOutputNode: AVAudioIONode, @unchecked Sendable {
    /// The output hardware's format: standard 48 kHz stereo.
    open override func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        connectedInputFormats[bus] ?? AVAudioNode.unconnectedFormat
    }

    /// The output node has no output buses.
    open override var numberOfOutputs: Int { 0 }
}

/// A node that mixes its inputs into one output.
/// - Note: On Linux it renders nothing; it exists for graph-building code.
open class AVAudioMixerNode: AVAudioNode, AVAudioMixing, @unchecked Sendable {
    /// The mixer's output volume, 0 to 1.
    open var outputVolume: Float = 1
    /// The mix volume, 0 to 1.
    open var volume: Float = 1
    /// The stereo pan, -1 to 1.
    open var pan: Float = 0

    /// Creates a mixer node.
    public override init() { super.init() }

    /// The lowest input bus with no connection.
    open var nextAvailableInputBus: AVAudioNodeBus {
        var bus = 0
        while connectedInputFormats[bus] != nil { bus += 1 }
        return bus
    }

    /// A mixer accepts many inputs.
    open override var numberOfInputs: Int { max(1, nextAvailableInputBus + 1) }
}
