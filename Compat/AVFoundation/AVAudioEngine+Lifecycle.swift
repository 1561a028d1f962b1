// AVAudioEngine's run state: prepare, start, pause, stop, reset, and what
// happens when the capture device fails.

extension AVAudioEngine {
    /// Prepares the engine to start (resources are taken in `start()` on Linux).
    public func prepare() {
        withState { state in state.prepared = true }
    }

    /// Starts the engine, opening the capture device if `inputNode` was used.
    /// - Throws: `kAudioHardwareBadDeviceError` in `NSOSStatusErrorDomain`
    ///   when the ALSA device cannot be opened or configured; the message
    ///   names the device and how to choose another.
    public func start() throws {
        let needsCapture: AVAudioInputNode? = withState { state in
            state.prepared = true
            guard state.session == nil, !state.runningWithoutInput else { return nil }
            if state.inputNode == nil { state.runningWithoutInput = true }
            return state.inputNode
        }
        guard let inputNode = needsCapture else { return }
        let source = makeSource()
        try source.open()
        inputNode.adopt(source.parameters)
        let engineBox = WeakEngine(self)
        let session = CaptureSession(source: source, taps: inputNode.taps) { error in
            engineBox.engine?.captureFailed(error)
        }
        withState { state in state.session = session }
        session.start()
    }

    /// Pauses the engine.
    /// - Note: On Linux pausing stops capture, like `stop()`.
    public func pause() { stop() }

    /// Stops the engine and releases the capture device. Tap calls already
    /// queued run before `stop()` returns (unless it is called from a tap).
    public func stop() {
        let session: CaptureSession? = withState { state in
            defer {
                state.session = nil
                state.runningWithoutInput = false
            }
            return state.session
        }
        session?.stop()
    }

    /// Resets every attached node's state (pending tap frames).
    public func reset() {
        for node in attachedNodes { node.reset() }
    }

    /// The device failed: stop, then tell observers.
    private func captureFailed(_ error: NSError) {
        withState { state in state.session = nil }
        NotificationCenter.default.post(name: .AVAudioEngineConfigurationChange, object: self,
                                        userInfo: [NSUnderlyingErrorKey: error])
    }
}

/// A weak reference to an engine that can cross into the capture thread.
private final class WeakEngine: @unchecked Sendable {
    weak var engine: AVAudioEngine?
    init(_ engine: AVAudioEngine) { self.engine = engine }
}
