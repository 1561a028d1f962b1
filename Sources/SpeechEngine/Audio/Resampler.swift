import CSoxr
import Foundation

/// A streaming sample-rate converter over libsoxr (high quality, `SOXR_HQ`), mono Float.
///
/// Feed it buffers of any size with `process(_:)` and call `finish()` once at the end
/// to flush the filter's tail; the concatenated outputs are the whole signal at
/// `outputRate`, with soxr's filter delay already compensated. When the two rates
/// are equal the samples pass through unchanged.
///
/// Not thread-safe: use one resampler from one task at a time.
public final class Resampler {
    /// Input sample rate in Hz.
    public let inputRate: Double
    /// Output sample rate in Hz.
    public let outputRate: Double
    private let handle: soxr_t?
    private var finished = false

    /// Creates a resampler from `inputRate` to `outputRate` (Hz).
    ///
    /// - Throws: `EngineError(.invalidArgument)` when a rate is not a positive finite
    ///   number, or `.internalInconsistency` when libsoxr refuses to start.
    public init(inputRate: Double, outputRate: Double = Transcriber.sampleRate) throws {
        guard inputRate.isFinite, outputRate.isFinite, inputRate > 0, outputRate > 0 else {
            throw EngineError(.invalidArgument,
                              "Sample rates must be positive numbers (got \(inputRate) Hz → \(outputRate) Hz).")
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        if inputRate == outputRate {
            handle = nil
            return
        }
        var error: soxr_error_t?
        // Default io spec is float32 interleaved; default quality spec is SOXR_HQ.
        let created = soxr_create(inputRate, outputRate, 1, &error, nil, nil, nil)
        if let error {
            throw EngineError(.internalInconsistency,
                              "libsoxr could not create a \(inputRate) → \(outputRate) Hz resampler: \(String(cString: error)).")
        }
        handle = created
    }

    deinit {
        if let handle { soxr_delete(handle) }
    }

    /// Resamples the next buffer; returns whatever output is ready (may be empty).
    ///
    /// - Precondition: `finish()` has not been called.
    public func process(_ samples: [Float]) -> [Float] {
        precondition(!finished, "Resampler.process called after finish()")
        guard let handle else { return samples }
        guard !samples.isEmpty else { return [] }
        return samples.withUnsafeBufferPointer { input in
            drain(handle, input: input.baseAddress, count: input.count)
        }
    }

    /// Flushes the filter's tail at the end of input. Call once.
    public func finish() -> [Float] {
        guard !finished else { return [] }
        finished = true
        guard let handle else { return [] }
        return drain(handle, input: nil, count: 0)
    }

    /// Resamples a whole signal in one call.
    ///
    /// - Throws: as `init(inputRate:outputRate:)`.
    public static func resample(_ samples: [Float], from inputRate: Double,
                                to outputRate: Double) throws -> [Float] {
        let resampler = try Resampler(inputRate: inputRate, outputRate: outputRate)
        return resampler.process(samples) + resampler.finish()
    }

    /// Pushes `count` samples (or, with `input == nil`, the end-of-input marker)
    /// and collects all output soxr produces for them.
    private func drain(_ handle: soxr_t, input: UnsafePointer<Float>?, count: Int) -> [Float] {
        let ratio = outputRate / inputRate
        let chunk = max(1_024, Int((Double(count) * ratio).rounded(.up)) + 64)
        var output: [Float] = []
        output.reserveCapacity(chunk)
        var buffer = [Float](repeating: 0, count: chunk)
        var consumed = 0
        while true {
            var inputDone = 0
            var outputDone = 0
            let remaining = count - consumed
            let error = buffer.withUnsafeMutableBufferPointer { target -> soxr_error_t? in
                soxr_process(handle, input.map { $0 + consumed }, remaining, &inputDone,
                             target.baseAddress, chunk, &outputDone)
            }
            if error != nil { break }
            consumed += inputDone
            output.append(contentsOf: buffer[0..<outputDone])
            // Input fully taken and no more output pending for it: done.
            if consumed >= count && outputDone < chunk { break }
        }
        return output
    }
}
