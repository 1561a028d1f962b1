// AVAudioInputNode: the microphone, captured through ALSA (API.md §2.7).

/// The node that delivers audio from the input device.
///
/// Its output format is the hardware format, always in the standard layout
/// (Float32, deinterleaved). Install a tap on bus 0 to receive the audio.
/// - Note: On Linux the device is the ALSA PCM named by
///   `SPEECHCOMPAT_ALSA_DEVICE` (default `default`), optionally defined in the
///   file named by `SPEECHCOMPAT_ALSA_CONFIG`. Its format is read when first
///   needed; if no device can be opened the node reports 48 kHz mono and
///   `AVAudioEngine.start()` throws.
open class AVAudioInputNode: AVAudioIONode, AVAudioMixing, @unchecked Sendable {
    /// The mix volume, 0 to 1.
    open var volume: Float = 1
    /// The stereo pan, -1 to 1.
    open var pan: Float = 0
    /// Creates the capture source (ALSA from the environment; tests inject others).
    let makeSource: () -> AudioCaptureSource
    private let formatLock = NSLock()
    private var probedFormat: AVAudioFormat?

    /// Creates an input node over a capture source factory.
    init(makeSource: @escaping () -> AudioCaptureSource) {
        self.makeSource = makeSource
        super.init()
    }

    /// The input node has no input buses.
    open override var numberOfInputs: Int { 0 }

    /// The hardware format (standard layout), for bus 0.
    open override func outputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        hardwareFormat
    }

    /// The hardware format (standard layout), for bus 0.
    open override func inputFormat(forBus bus: AVAudioNodeBus) -> AVAudioFormat {
        hardwareFormat
    }

    /// The device's format, probed by opening it once; 48 kHz mono if it
    /// cannot be opened (`start()` probes again and reports the error).
    var hardwareFormat: AVAudioFormat {
        formatLock.lock()
        defer { formatLock.unlock() }
        if let probedFormat { return probedFormat }
        let source = makeSource()
        var format = AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 1)!
        if (try? source.open()) != nil { format = source.parameters.standardFormat }
        source.close()
        probedFormat = format
        return format
    }

    /// Records the format of a source that was just opened for capture.
    func adopt(_ parameters: ALSAStreamParameters) {
        formatLock.lock()
        probedFormat = parameters.standardFormat
        formatLock.unlock()
    }

    /// The time of the latest captured frame while the engine runs.
    open override var lastRenderTime: AVAudioTime? { engine?.currentSession?.lastRenderTime }
}
