import Foundation

/// Stop signals (SIGINT, SIGTERM, …) handed to a closure on a dispatch
/// thread instead of their default action, which would end the process
/// mid-request or leave a child process running. `speech serve` and
/// `speech bench` each keep one for the life of the process.
final class SignalWatch: @unchecked Sendable {
    /// Written once, in init; the sources must live as long as the watch.
    private var sources: [any DispatchSourceSignal] = []

    /// - Parameter handler: called with the signal's number, once per delivery.
    init(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            // Dispatch sees the signal only once its default action is off.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// The signal's usual name ("SIGINT"), for messages.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(number)"
        }
    }
}
