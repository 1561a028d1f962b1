import CSpeechKernels
import Foundation

/// Vectorised `exp`, softmax and GELU for the hot loops outside BLAS
/// (attention softmax over 1500×1500 scores per head, GELU over 1500×2048
/// per layer). Scalar `expf`/`erff` calls cost more than the GEMMs around them.
enum VectorMath {
    typealias Vector = SIMD8<Float>

    /// exp(x) with relative error below 2e-7 over the float range
    /// (Cephes-style: 2^n · p(r) with r = x − n·ln 2 split in two parts).
    @inline(__always)
    static func exp(_ x: Vector) -> Vector {
        // Clamp with masks: `clamped(lowerBound:upperBound:)` goes through a
        // generic, non-inlined pointwise min/max.
        let low = Vector(repeating: -87.3), high = Vector(repeating: 88.3)
        let clamped = x.replacing(with: low, where: x .< low).replacing(with: high, where: x .> high)
        // Round x·log2(e) to an integer n with the 1.5·2^23 trick: adding it
        // leaves n in the low mantissa bits, so no float→int conversion is
        // needed (Swift's generic SIMD conversions are slow).
        let magic: Float = 12_582_912
        let shifted = clamped * 1.442695040888963 + magic
        let n = shifted - magic
        var r = clamped - n * 0.693359375
        r = r + n * 2.12194440e-4
        var p = Vector(repeating: 1.9875691500e-4)
        p = p * r + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        p = p * r * r + r + 1
        let nBits = unsafeBitCast(shifted, to: SIMD8<UInt32>.self) &- 0x4B40_0000
        let scale = unsafeBitCast((nBits &+ 127) &<< 23, to: Vector.self)
        // Inputs far below the range give exactly 0 (softmax masks use -inf).
        return (p * scale).replacing(with: 0, where: x .< -87.3)
    }

    /// Whether softmax, log-sum-exp and GELU run the C kernels (`sk_softmax`), which
    /// give this file's bits at the CPU's vector width (Swift compiles the
    /// code here for baseline x86-64, four lanes an instruction).
    static let usesKernels = sk_softmax_vectorized() != 0

    /// Softmax of `count` values in place.
    static func softmax(_ row: UnsafeMutablePointer<Float>, count: Int) {
        guard usesKernels else { return softmaxReference(row, count: count) }
        sk_softmax(2, row, Int32(count))
    }

    /// log Σ exp(values), stable; -inf when every value is -inf.
    /// Decoding takes one over the 51,865 logits of every beam at every step.
    static func logSumExp(_ values: UnsafePointer<Float>, count: Int) -> Float {
        guard usesKernels else { return logSumExpReference(values, count: count) }
        return sk_log_sum_exp(2, values, Int32(count))
    }

    /// Softmax in Swift: the reference the kernels reproduce bit for bit.
    static func softmaxReference(_ row: UnsafeMutablePointer<Float>, count: Int) {
        let maxValue = maximum(row, count: count)
        guard maxValue > -.infinity else { return }
        let shift = Vector(repeating: maxValue)
        var sums = Vector.zero
        var i = 0
        let raw = UnsafeMutableRawPointer(row)
        while i + 8 <= count {
            let v = exp(raw.loadUnaligned(fromByteOffset: 4 * i, as: Vector.self) - shift)
            raw.storeBytes(of: v, toByteOffset: 4 * i, as: Vector.self)
            sums += v
            i += 8
        }
        var sum = sums.sum()
        while i < count {
            let e = exp(Vector(repeating: row[i] - maxValue))[0]
            row[i] = e
            sum += e
            i += 1
        }
        let inverse = 1 / sum
        for j in 0..<count { row[j] *= inverse }
    }

    /// The largest of `count` values (-inf for none).
    static func maximum(_ values: UnsafePointer<Float>, count: Int) -> Float {
        let raw = UnsafeRawPointer(values)
        var best = Vector(repeating: -.infinity)
        var i = 0
        while i + 8 <= count {
            let v = raw.loadUnaligned(fromByteOffset: 4 * i, as: Vector.self)
            best = best.replacing(with: v, where: v .> best)
            i += 8
        }
        var result = best.max()
        while i < count {
            result = Swift.max(result, values[i])
            i += 1
        }
        return result
    }

    /// log-sum-exp in Swift: the reference the kernels reproduce bit for bit.
    static func logSumExpReference(_ values: UnsafePointer<Float>, count: Int) -> Float {
        let maxValue = maximum(values, count: count)
        guard maxValue > -.infinity else { return -.infinity }
        let raw = UnsafeRawPointer(values)
        let shift = Vector(repeating: maxValue)
        var sums = Vector.zero
        var i = 0
        while i + 8 <= count {
            sums += exp(raw.loadUnaligned(fromByteOffset: 4 * i, as: Vector.self) - shift)
            i += 8
        }
        var sum = sums.sum()
        while i < count {
            sum += exp(Vector(repeating: values[i] - maxValue))[0]
            i += 1
        }
        return maxValue + logf(sum)
    }

    /// GELU, erf form, in place. erf by Abramowitz–Stegun 7.1.26 (|error| < 1.5e-7).
    static func gelu(_ values: UnsafeMutableBufferPointer<Float>) {
        guard usesKernels, let base = values.baseAddress else { return geluReference(values) }
        sk_gelu(2, base, values.count)
    }

    /// GELU in Swift: the reference the kernels reproduce bit for bit.
    static func geluReference(_ values: UnsafeMutableBufferPointer<Float>) {
        let raw = UnsafeMutableRawPointer(values.baseAddress!)
        var i = 0
        while i + 8 <= values.count {
            let x = raw.loadUnaligned(fromByteOffset: 4 * i, as: Vector.self)
            raw.storeBytes(of: gelu(x), toByteOffset: 4 * i, as: Vector.self)
            i += 8
        }
        while i < values.count {
            values[i] = gelu(Vector(repeating: values[i]))[0]
            i += 1
        }
    }

    @inline(__always)
    static func gelu(_ x: Vector) -> Vector {
        let z = x * 0.70710678118654752
        let a = abs(z)
        let t = 1 / (1 + 0.3275911 * a)
        var poly = Vector(repeating: 1.061405429)
        poly = poly * t - 1.453152027
        poly = poly * t + 1.421413741
        poly = poly * t - 0.284496736
        poly = poly * t + 0.254829592
        poly = poly * t
        let erfAbs = 1 - poly * exp(-(a * a))
        let erf = erfAbs.replacing(with: -erfAbs, where: z .< 0)
        return 0.5 * x * (1 + erf)
    }
}

private func abs(_ v: SIMD8<Float>) -> SIMD8<Float> {
    unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & SIMD8<UInt32>(repeating: 0x7fff_ffff), to: SIMD8<Float>.self)
}
