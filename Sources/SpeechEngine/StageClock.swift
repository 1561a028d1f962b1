import Foundation

/// Accumulates wall time per pipeline stage (mel, encode, decode, align),
/// passed into a transcription so that `--verbose` and the benchmarks can
/// say where time goes without timing code in the data path.
public final class StageClock: @unchecked Sendable {
    /// The stages the transcriber reports.
    public enum Stage: String, Sendable, CaseIterable {
        case melSpectrogram = "mel", encoder = "encode", decoder = "decode", wordAlignment = "align"
    }

    private let lock = NSLock()
    private var totals: [Stage: Duration] = [:]
    private let clock = ContinuousClock()

    public init() {}

    /// Runs `body`, adding its duration to `stage`.
    @discardableResult
    public func measure<T>(_ stage: Stage, _ body: () throws -> T) rethrows -> T {
        let start = clock.now
        defer {
            let elapsed = clock.now - start
            lock.lock()
            totals[stage, default: .zero] += elapsed
            lock.unlock()
        }
        return try body()
    }

    /// Seconds spent in each stage so far.
    public var seconds: [Stage: Double] {
        lock.lock()
        defer { lock.unlock() }
        return totals.mapValues { Double($0.components.seconds) + Double($0.components.attoseconds) * 1e-18 }
    }
}

extension Optional where Wrapped == StageClock {
    /// Measures through the clock when there is one.
    func measure<T>(_ stage: StageClock.Stage, _ body: () throws -> T) rethrows -> T {
        switch self {
        case .some(let clock): try clock.measure(stage, body)
        case .none: try body()
        }
    }
}
