// Which capture run a buffer came from, so that recognition fed from an input
// tap can end with a typed error when the device vanishes mid-stream.

import Foundation

/// One capture run of an `AVAudioEngine` input node (from `start()` to
/// `stop()` or a device failure), as the buffers it delivered know it.
///
/// On Apple platforms a vanished device only stops the engine, posts
/// `AVAudioEngineConfigurationChange` and leaves the input tap silent; a
/// recognition request fed from that tap would wait for audio forever. The
/// Speech faces (in this package) look at the origin of the buffers they are
/// given and ask to hear of the failure, so that the task or analysis ends
/// with a typed error and keeps the text recognized so far.
package final class CaptureOrigin: @unchecked Sendable {
    // @unchecked: all state is behind `lock`.
    private let lock = NSLock()
    private var failure: NSError?
    private var observers: [@Sendable (NSError) -> Void] = []
    /// Where an observer registered after the failure is called: a queue of
    /// its own, so that it runs even when the global queues are busy, and
    /// never inside the registering caller (which may hold its own lock).
    private static let lateCalls = DispatchQueue(label: "SpeechCompat.CaptureOrigin.late")

    /// A running capture.
    package init() {}

    /// The device error, once capture failed.
    package var deviceFailure: NSError? { lock.withLock { failure } }

    /// Calls `observer` once when capture fails: on the engine's tap queue,
    /// after the last buffer (or soon, on a queue of its own, if it failed
    /// already). Observers of a run that stops
    /// normally are released with it and never called.
    package func whenDeviceFails(_ observer: @escaping @Sendable (NSError) -> Void) {
        let failedAlready: NSError? = lock.withLock {
            if let failure { return failure }
            observers.append(observer)
            return nil
        }
        if let failedAlready { CaptureOrigin.lateCalls.async { observer(failedAlready) } }
    }

    /// Capture failed with `error`: every observer hears it, once. Called on
    /// the tap queue after the buffers captured before the failure.
    func deviceFailed(_ error: NSError) {
        let toCall: [@Sendable (NSError) -> Void] = lock.withLock {
            guard failure == nil else { return [] }
            failure = error
            defer { observers = [] }
            return observers
        }
        for observer in toCall { observer(error) }
    }
}
