// The taps installed on one node, shared between the app's threads and the
// capture thread.

import Foundation

/// Thread-safe storage of a node's taps, one per bus.
final class TapRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var taps: [AVAudioNodeBus: NodeTap] = [:]

    /// Installs a tap; Apple allows only one per bus.
    /// - Precondition: No tap is installed on the bus (Apple raises
    ///   "required condition is false: nullptr == Tap()").
    func install(_ tap: NodeTap) {
        lock.lock()
        defer { lock.unlock() }
        precondition(taps[tap.bus] == nil, "required condition is false: nullptr == Tap()")
        taps[tap.bus] = tap
    }

    /// Removes the tap on a bus, if any.
    func remove(bus: AVAudioNodeBus) {
        lock.lock()
        defer { lock.unlock() }
        taps[bus] = nil
    }

    /// The taps installed now.
    var all: [NodeTap] {
        lock.lock()
        defer { lock.unlock() }
        return Array(taps.values)
    }

    /// Whether a tap is installed on the bus.
    func hasTap(onBus bus: AVAudioNodeBus) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return taps[bus] != nil
    }
}
