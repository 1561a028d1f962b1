import CBLAS
import CSpeechKernels
import Foundation
import Testing
@testable import SpeechEngine

/// The engine's own float products (`sk_sgemm`, used where OpenBLAS runs its
/// generic kernels) against OpenBLAS's sgemm on the encoder's shapes and on
/// ragged ones: within `2e-6 · k · max|a| · max|b|` of it (float sums in
/// another order), every form this CPU runs (plain C, AVX2+FMA, AVX-512); and
/// AVX-512 gives AVX2's bits exactly, so a machine's transcripts do not
/// depend on which of the two it has.
@Suite struct FloatGemmTests {
    struct Shape: Sendable, CustomStringConvertible {
        var m: Int, n: Int, k: Int, transB: Bool
        var lda: Int, ldb: Int, ldc: Int
        var description: String { "\(m)x\(n)x\(k)\(transB ? " Bᵀ" : "")" }

        init(_ m: Int, _ n: Int, _ k: Int, transB: Bool, lda: Int? = nil, ldb: Int? = nil, ldc: Int? = nil) {
            self.m = m; self.n = n; self.k = k; self.transB = transB
            self.lda = lda ?? k
            self.ldb = ldb ?? (transB ? k : n)
            self.ldc = ldc ?? n
        }
    }

    static let shapes: [Shape] = [
        // Encoder attention scores q·kᵀ (a block of queries, 1,500 keys, head width 64, fused qkv rows).
        Shape(64, 1500, 64, transB: true, lda: 1536, ldb: 1536),
        // Weights times values (1,500 keys), into a head's columns of the output.
        Shape(64, 64, 1500, transB: false, ldb: 1536, ldc: 512),
        // The second convolution as a GEMM over im2col rows (3 × 512 inputs, 512 outputs).
        Shape(30, 512, 1536, transB: true),
        // Ragged: rows and columns that fill no tile, one element, a long thin k.
        Shape(7, 17, 5, transB: true), Shape(7, 17, 5, transB: false), Shape(1, 1, 1, transB: false),
        Shape(13, 31, 300, transB: false, lda: 301, ldb: 40, ldc: 33),
        // Two full 12-row tiles and one row; a two-panel pass and a one-panel tail.
        Shape(25, 40, 70, transB: true), Shape(25, 40, 70, transB: false),
    ]

    static func values(_ count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(Int64(bitPattern: state >> 11) % 2_000_001 - 1_000_000) / 1_000_000
        }
    }

    /// `C = alpha·A·op(B) (+ C)`, through OpenBLAS or through `sk_sgemm`.
    static func product(_ shape: Shape, alpha: Float, accumulate: Bool, own: Int32?) -> [Float] {
        let a = values(shape.m * shape.lda, seed: 1)
        let b = values((shape.transB ? shape.n : shape.k) * shape.ldb, seed: 2)
        var c = accumulate ? values(shape.m * shape.ldc, seed: 3) : [Float](repeating: .nan, count: shape.m * shape.ldc)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                c.withUnsafeMutableBufferPointer { c in
                    if let own {
                        let status = sk_sgemm(own, shape.transB ? 1 : 0, Int32(shape.m), Int32(shape.n), Int32(shape.k), alpha,
                                              a.baseAddress, Int32(shape.lda), b.baseAddress, Int32(shape.ldb),
                                              accumulate ? 1 : 0, c.baseAddress, Int32(shape.ldc))
                        #expect(status == 0)
                    } else {
                        BLAS.openBLASsgemm(CblasRowMajor, CblasNoTrans, shape.transB ? CblasTrans : CblasNoTrans,
                                           Int32(shape.m), Int32(shape.n), Int32(shape.k), alpha,
                                           a.baseAddress, Int32(shape.lda), b.baseAddress, Int32(shape.ldb),
                                           accumulate ? 1 : 0, c.baseAddress, Int32(shape.ldc))
                    }
                }
            }
        }
        // Only the product's columns: the rest of a strided row is not C's.
        return (0..<shape.m).flatMap { row in c[(row * shape.ldc)..<(row * shape.ldc + shape.n)] }
    }

    /// Every `sk_float_path` this CPU runs.
    static var paths: [Int32] { Array(0...sk_float_gemm_best()) }

    @Test(arguments: shapes)
    func matchesOpenBLAS(_ shape: Shape) {
        for (alpha, accumulate) in [(Float(1), false), (0.125, false), (1, true)] {
            let expected = Self.product(shape, alpha: alpha, accumulate: accumulate, own: nil)
            let tolerance = 2e-6 * Float(shape.k) * abs(alpha) + 1e-6
            for path in Self.paths {
                let actual = Self.product(shape, alpha: alpha, accumulate: accumulate, own: path)
                let worst = zip(actual, expected).map { abs($0 - $1) }.max() ?? .infinity
                #expect(actual.allSatisfy { $0.isFinite }, "\(shape) path \(path): NaN left in C")
                #expect(worst <= tolerance, "\(shape) path \(path) alpha \(alpha) accumulate \(accumulate): \(worst)")
            }
        }
    }

    /// Each output is one FMA chain over k in order in both vector forms.
    @Test(.enabled(if: sk_float_gemm_best() == Int32(SK_FLOAT_AVX512.rawValue), "AVX-512 on this CPU"),
          arguments: shapes)
    func wideTilesGiveTheSameBitsAsAVX2(_ shape: Shape) {
        for (alpha, accumulate) in [(Float(1), false), (0.125, false), (1, true)] {
            let avx2 = Self.product(shape, alpha: alpha, accumulate: accumulate, own: Int32(SK_FLOAT_AVX2.rawValue))
            let avx512 = Self.product(shape, alpha: alpha, accumulate: accumulate, own: Int32(SK_FLOAT_AVX512.rawValue))
            #expect(avx512.map(\.bitPattern) == avx2.map(\.bitPattern), "\(shape) alpha \(alpha) accumulate \(accumulate)")
        }
    }

    /// Half weights widened as they are packed (`sk_sgemm_half`, `HalfMatrix`
    /// over many rows) give the bits of widening them first and running the
    /// float tiles: the decoder's shapes at a beam-5 batch (40 rows), and
    /// ragged ones (k not a multiple of the 16-wide blocks, a one-panel tail,
    /// rows short of a tile, strides wider than the product).
    @Test(.enabled(if: sk_float_gemm_best() == Int32(SK_FLOAT_AVX512.rawValue), "AVX-512 on this CPU"),
          arguments: [Shape(40, 1536, 512, transB: true), Shape(40, 512, 2048, transB: true),
                      Shape(25, 40, 70, transB: true), Shape(7, 17, 5, transB: true), Shape(1, 1, 1, transB: true),
                      Shape(13, 31, 300, transB: true, lda: 301, ldb: 307, ldc: 33)])
    func halfPanelsGiveTheWidenedBits(_ shape: Shape) {
        let a = Self.values(shape.m * shape.lda, seed: 1)
        let half = Self.values(shape.n * shape.ldb, seed: 2).map { Float16($0 * 4).bitPattern }
        let widened = half.map { Float(Float16(bitPattern: $0)) }
        for (alpha, accumulate) in [(Float(1), false), (0.125, false), (1, true)] {
            let start = accumulate ? Self.values(shape.m * shape.ldc, seed: 3)
                : [Float](repeating: .nan, count: shape.m * shape.ldc)
            var expected = start, actual = start
            let (m, n, k) = (Int32(shape.m), Int32(shape.n), Int32(shape.k))
            let (lda, ldb, ldc) = (Int32(shape.lda), Int32(shape.ldb), Int32(shape.ldc))
            #expect(sk_sgemm(Int32(SK_FLOAT_AVX512.rawValue), 1, m, n, k, alpha, a, lda, widened, ldb,
                             accumulate ? 1 : 0, &expected, ldc) == 0)
            #expect(sk_sgemm_half(m, n, k, alpha, a, lda, half, ldb, accumulate ? 1 : 0, &actual, ldc) == 0)
            #expect(actual.map(\.bitPattern) == expected.map(\.bitPattern),
                    "\(shape) alpha \(alpha) accumulate \(accumulate)")
        }
    }

    /// A product over nothing writes zeros (or leaves C) as sgemm does.
    @Test func emptySumWritesZerosOrLeavesC() {
        for path in Self.paths {
            var c: [Float] = [.nan, .nan, 5, 6]
            c.withUnsafeMutableBufferPointer { c in
                #expect(sk_sgemm(path, 0, 1, 2, 0, 1, nil, 1, nil, 2, 0, c.baseAddress, 2) == 0)
                #expect(sk_sgemm(path, 0, 1, 2, 0, 1, nil, 1, nil, 2, 1, c.baseAddress! + 2, 2) == 0)
            }
            #expect(c == [0, 0, 5, 6])
        }
    }

    /// The engine takes its own tiles exactly where OpenBLAS runs generic kernels on an AVX2+FMA CPU.
    @Test func theEngineTakesItsOwnTilesOnlyWhereOpenBLASIsGeneric() {
        guard ProcessInfo.processInfo.environment["SPEECHCOMPAT_FLOAT_GEMM"] == nil else { return }
        #expect(BLAS.usesOwnProducts == (BLAS.coreName == "Prescott" && sk_float_gemm_vectorized() != 0))
        let own = sk_float_gemm_best() == Int32(SK_FLOAT_AVX512.rawValue) ? "avx512" : "avx2"
        #expect(MatrixBackend.floatProducts == (BLAS.usesOwnProducts ? own : "openblas"))
    }
}
