// AVAudioEngine's run state: prepare, start, pause, stop, reset, and what
// happens when the capture device fails.

extension AVAudioEngine {
    /// Marks the engine prepared (resources are taken in `start()` on Linux).
    func prepareEngine() {
        withState { state in state.prepared = true }
    }

    /// Starts capture from the input source if `inputNode` was used.
    func startEngine() throws {
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

    /// Stops capture and waits for queued tap calls (unless called from a tap).
    func stopEngine() {
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
    func resetEngine() {
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
