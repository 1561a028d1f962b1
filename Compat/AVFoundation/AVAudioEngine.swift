// AVAudioEngine: the graph of nodes and the capture run (API.md §2.6).

extension Notification.Name {
    /// Posted (object: the engine) when the audio hardware changes, e.g. the
    /// capture device disappears; the engine has stopped by then.
    public static let AVAudioEngineConfigurationChange = Notification.Name("AVAudioEngineConfigurationChangeNotification")
}

/// A graph of audio nodes; on Linux it captures from the input device and
/// delivers the audio to taps on `inputNode`.
///
/// `inputNode`, `outputNode` and `mainMixerNode` are created on first access;
/// `mainMixerNode` is connected to `outputNode`.
/// - Note: On Linux only capture is real (ALSA); mixing and playback are not
///   rendered. `start()` opens the capture device only if `inputNode` was
///   used, and throws an `NSOSStatusErrorDomain` error
///   (`kAudioHardwareBadDeviceError`) if it cannot be opened. If the device
///   fails while running, the engine stops and posts
///   `AVAudioEngineConfigurationChange`.
open class AVAudioEngine: NSObject, @unchecked Sendable {
    /// The engine's run state, guarded by `lock`.
    struct RunState {
        var session: CaptureSession?
        var prepared = false
        var runningWithoutInput = false
        var inputNode: AVAudioInputNode?
    }

    private let lock = NSLock()
    private var runState = RunState()
    private var nodes: Set<AVAudioNode> = []
    private var lazyOutputNode: AVAudioOutputNode?
    private var lazyMixerNode: AVAudioMixerNode?
    /// Makes capture sources; ALSA from the environment unless a test injects one.
    let makeSource: () -> AudioCaptureSource

    /// Creates an engine that captures from `AVAudioEngine.InputSource.default`:
    /// the ALSA device in the environment unless a test chose another source.
    /// Designated, as Apple's, so subclasses inherit it.
    public override init() {
        self.makeSource = InputSource.default.makeSource
        super.init()
    }

    /// Creates an engine that captures from a chosen source: a file, a
    /// synthetic signal or an ALSA device (a SpeechCompat addition for tests;
    /// not Apple API).
    public convenience init(inputSource: InputSource) {
        self.init(makeSource: inputSource.makeSource)
    }

    /// Creates an engine over a capture source factory.
    init(makeSource: @escaping () -> AudioCaptureSource) {
        self.makeSource = makeSource
        super.init()
    }

    deinit {
        // An engine that goes away stops capturing, as on Apple platforms.
        runState.session?.stop()
    }

    /// The node for the input device, created on first access.
    open var inputNode: AVAudioInputNode {
        lock.lock()
        defer { lock.unlock() }
        if let existing = runState.inputNode { return existing }
        let node = AVAudioInputNode(makeSource: makeSource)
        adopt(node)
        runState.inputNode = node
        return node
    }

    /// The node for the output device, created on first access.
    open var outputNode: AVAudioOutputNode {
        lock.lock()
        defer { lock.unlock() }
        return lockedOutputNode
    }

    private var lockedOutputNode: AVAudioOutputNode {
        if let lazyOutputNode { return lazyOutputNode }
        let node = AVAudioOutputNode()
        adopt(node)
        lazyOutputNode = node
        return node
    }

    /// The main mixer, created on first access and connected to `outputNode`.
    open var mainMixerNode: AVAudioMixerNode {
        lock.lock()
        defer { lock.unlock() }
        if let lazyMixerNode { return lazyMixerNode }
        let mixer = AVAudioMixerNode()
        adopt(mixer)
        let output = lockedOutputNode
        let format = output.inputFormat(forBus: 0)
        mixer.connectedOutputFormats[0] = format
        output.connectedInputFormats[0] = format
        lazyMixerNode = mixer
        return mixer
    }

    private func adopt(_ node: AVAudioNode) {
        node.engine = self
        nodes.insert(node)
    }

    /// Attaches a node to the engine.
    open func attach(_ node: AVAudioNode) {
        lock.lock()
        defer { lock.unlock() }
        adopt(node)
    }

    /// Detaches a node from the engine.
    open func detach(_ node: AVAudioNode) {
        lock.lock()
        defer { lock.unlock() }
        nodes.remove(node)
        node.engine = nil
    }

    /// The nodes attached to the engine.
    open var attachedNodes: Set<AVAudioNode> {
        lock.lock()
        defer { lock.unlock() }
        return nodes
    }

    /// Connects an output bus of one node to an input bus of another.
    /// `format: nil` uses the source bus's output format.
    open func connect(_ node1: AVAudioNode, to node2: AVAudioNode, fromBus bus1: AVAudioNodeBus,
                      toBus bus2: AVAudioNodeBus, format: AVAudioFormat?) {
        let connectionFormat = format ?? node1.outputFormat(forBus: bus1)
        lock.lock()
        defer { lock.unlock() }
        adopt(node1)
        adopt(node2)
        if !(node1 is AVAudioInputNode) { node1.connectedOutputFormats[bus1] = connectionFormat }
        node2.connectedInputFormats[bus2] = connectionFormat
    }

    /// Connects bus 0 of one node to the next free input bus (bus 0 unless the
    /// destination is a mixer) of another.
    open func connect(_ node1: AVAudioNode, to node2: AVAudioNode, format: AVAudioFormat?) {
        let bus = (node2 as? AVAudioMixerNode)?.nextAvailableInputBus ?? 0
        connect(node1, to: node2, fromBus: 0, toBus: bus, format: format)
    }

    /// Removes the connection into a node's input bus.
    open func disconnectNodeInput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        lock.lock()
        defer { lock.unlock() }
        node.connectedInputFormats[bus] = nil
    }

    /// Removes every connection into a node.
    open func disconnectNodeInput(_ node: AVAudioNode) {
        lock.lock()
        defer { lock.unlock() }
        node.connectedInputFormats.removeAll()
    }

    /// Removes the connection from a node's output bus.
    open func disconnectNodeOutput(_ node: AVAudioNode, bus: AVAudioNodeBus) {
        lock.lock()
        defer { lock.unlock() }
        node.connectedOutputFormats[bus] = nil
    }

    /// Removes every connection from a node.
    open func disconnectNodeOutput(_ node: AVAudioNode) {
        lock.lock()
        defer { lock.unlock() }
        node.connectedOutputFormats.removeAll()
    }

    /// Prepares the engine to start (resources are taken in `start()` on Linux).
    open func prepare() { prepareEngine() }

    /// Starts the engine, opening the capture source if `inputNode` was used.
    /// - Throws: `kAudioHardwareBadDeviceError` in `NSOSStatusErrorDomain`
    ///   when the ALSA device cannot be opened or configured (the message
    ///   names the device and how to choose another), or the input file
    ///   cannot be read.
    open func start() throws { try startEngine() }

    /// Pauses the engine.
    /// - Note: On Linux pausing stops capture, like `stop()`.
    open func pause() { stopEngine() }

    /// Stops the engine and releases the capture source. Tap calls already
    /// queued run before `stop()` returns (unless it is called from a tap).
    open func stop() { stopEngine() }

    /// Resets every attached node's state (pending tap frames).
    open func reset() { resetEngine() }

    /// Whether the engine is running.
    open var isRunning: Bool {
        withState { $0.session != nil || $0.runningWithoutInput }
    }

    /// The capture run in progress, if any.
    var currentSession: CaptureSession? { withState { $0.session } }

    /// Runs `body` on the run state under the engine's lock.
    func withState<Result>(_ body: (inout RunState) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&runState)
    }
}
