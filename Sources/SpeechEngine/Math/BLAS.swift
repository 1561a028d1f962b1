import CBLAS
import CSpeechKernels
import Foundation
import Synchronization

/// The engine's only door into OpenBLAS: `sgemm` and `sgemv` with the cblas
/// signatures, each call held open against process exit. Where OpenBLAS runs
/// its generic kernels, `sgemm` takes the engine's own tiles instead
/// (`usesOwnProducts`).
///
/// Why a door: OpenBLAS frees its work buffers in a library destructor when
/// the process exits. An app that calls `exit(0)` while a recognition is
/// decoding (a dictation app's `stop()`, a result handler that quits) ran
/// that destructor while an engine thread was still inside `sgemm`, and the
/// thread then read unmapped memory (SIGSEGV in libopenblas). Library
/// destructors run after `atexit` handlers, so the first call here registers
/// one that closes the door and waits for the calls inside to leave (each
/// takes milliseconds); a thread that reaches the door after that parks
/// until the process is gone. Nothing else changes for a running process:
/// entering costs two atomic operations next to calls of microseconds to
/// milliseconds.
enum BLAS {
    /// `C = alpha·op(A)·op(B) + beta·C` (cblas_sgemm).
    @inline(__always)
    static func sgemm(_ order: CBLAS_ORDER, _ transA: CBLAS_TRANSPOSE, _ transB: CBLAS_TRANSPOSE,
                      _ m: Int32, _ n: Int32, _ k: Int32, _ alpha: Float,
                      _ a: UnsafePointer<Float>?, _ lda: Int32, _ b: UnsafePointer<Float>?, _ ldb: Int32,
                      _ beta: Float, _ c: UnsafeMutablePointer<Float>?, _ ldc: Int32) {
        if usesOwnProducts, order == CblasRowMajor, transA == CblasNoTrans, beta == 0 || beta == 1,
           let a, let b, let c,
           sk_sgemm(ownProductsPath, transB == CblasNoTrans ? 0 : 1, m, n, k, alpha, a, lda, b, ldb,
                    beta == 1 ? 1 : 0, c, ldc) == 0 {
            return
        }
        openBLASsgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }

    /// `sgemm` always through OpenBLAS (the reference the own tiles are tested against).
    static func openBLASsgemm(_ order: CBLAS_ORDER, _ transA: CBLAS_TRANSPOSE, _ transB: CBLAS_TRANSPOSE,
                              _ m: Int32, _ n: Int32, _ k: Int32, _ alpha: Float,
                              _ a: UnsafePointer<Float>?, _ lda: Int32, _ b: UnsafePointer<Float>?, _ ldb: Int32,
                              _ beta: Float, _ c: UnsafeMutablePointer<Float>?, _ ldc: Int32) {
        ExitGate.enter()
        defer { ExitGate.leave() }
        cblas_sgemm(order, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    }

    /// Whether `sgemm` runs the engine's own AVX2+FMA or AVX-512 tiles (`sk_sgemm`)
    /// instead of OpenBLAS: where OpenBLAS does not know the CPU and runs its
    /// generic SSE3 kernels, which took twice the time (Benchmarks/RESULTS.md,
    /// "Float products where OpenBLAS does not know the CPU"). Elsewhere
    /// OpenBLAS's own kernels for the CPU are the faster.
    /// `SPEECHCOMPAT_FLOAT_GEMM=openblas|own` forces one (benchmarks; `own`
    /// only where the CPU has AVX2 and FMA).
    static let usesOwnProducts: Bool = {
        guard sk_float_gemm_vectorized() != 0 else { return false }
        switch ProcessInfo.processInfo.environment["SPEECHCOMPAT_FLOAT_GEMM"] {
        case "openblas": return false
        case "own": return true
        default: return coreName == "Prescott"
        }
    }()

    /// The form of the own tiles `sgemm` runs (`sk_float_path`): AVX-512
    /// where the CPU has it (1.7x the AVX2 tiles' multiply-adds on the
    /// encoder's shapes, the same bits), else AVX2+FMA.
    static let ownProductsPath: Int32 = sk_float_gemm_best()

    /// Whether `sgemm` is the own AVX-512 tiles, which also take half
    /// weights (`sk_sgemm_half`) with the bits of widening them first.
    static let packsHalfWeights = usesOwnProducts && ownProductsPath == SK_FLOAT_AVX512.rawValue

    /// `y = alpha·op(A)·x + beta·y` (cblas_sgemv).
    @inline(__always)
    static func sgemv(_ order: CBLAS_ORDER, _ trans: CBLAS_TRANSPOSE, _ m: Int32, _ n: Int32, _ alpha: Float,
                      _ a: UnsafePointer<Float>?, _ lda: Int32, _ x: UnsafePointer<Float>?, _ incx: Int32,
                      _ beta: Float, _ y: UnsafeMutablePointer<Float>?, _ incy: Int32) {
        ExitGate.enter()
        defer { ExitGate.leave() }
        cblas_sgemv(order, trans, m, n, alpha, a, lda, x, incx, beta, y, incy)
    }

    /// The kernels OpenBLAS picked for this CPU at load ("Haswell", "SkylakeX", ...).
    static var coreName: String {
        guard let name = openblas_get_corename() else { return "unknown" }
        return String(cString: name)
    }

    /// OpenBLAS's build configuration ("OpenBLAS 0.3.21 DYNAMIC_ARCH ... Haswell MAX_THREADS=64").
    static var configuration: String {
        guard let text = openblas_get_config() else { return "unknown" }
        return String(cString: text)
    }

    /// Pins OpenBLAS to one thread (the engine splits work itself, see `ComputeThreads`).
    static func useOneThread() {
        ExitGate.enter()
        defer { ExitGate.leave() }
        openblas_set_num_threads(1)
    }

    /// Counts the threads inside OpenBLAS and closes at process exit.
    enum ExitGate {
        private static let inside = Atomic<Int>(0)
        private static let closed = Atomic<Bool>(false)
        /// Registered once, by the first call through the door.
        private static let registration: Void = {
            atexit { BLAS.ExitGate.close() }
        }()

        /// Longest wait at exit for calls to leave: far longer than one call,
        /// short enough that a wedged thread cannot hold the exit.
        static let drainTimeoutSeconds = 5.0

        static func enter() {
            _ = registration
            inside.add(1, ordering: .sequentiallyConsistent)
            if closed.load(ordering: .sequentiallyConsistent) {
                // The process is exiting: never touch OpenBLAS again.
                inside.subtract(1, ordering: .sequentiallyConsistent)
                while true { sleep(60) }
            }
        }

        static func leave() {
            inside.subtract(1, ordering: .sequentiallyConsistent)
        }

        /// Closes the door and waits until no thread is inside.
        static func close() {
            closed.store(true, ordering: .sequentiallyConsistent)
            let deadline = Date().addingTimeInterval(drainTimeoutSeconds)
            while inside.load(ordering: .sequentiallyConsistent) > 0, Date() < deadline {
                usleep(500)
            }
        }

        /// Threads inside OpenBLAS now (for tests).
        static var insideCount: Int { inside.load(ordering: .sequentiallyConsistent) }
    }
}

/// What the engine's float matrix products run on, for benchmarks to report
/// beside their figures.
///
/// Why it matters: an OpenBLAS older than the CPU (Debian's 0.3.21 on a
/// 2023 Xeon) does not recognise it and falls back to its generic `Prescott`
/// kernels (SSE3), which run sgemm at a fraction of the CPU's speed; the same
/// code then took twice the CPU time it took on an older machine. There the
/// engine multiplies with its own AVX2+FMA or AVX-512 tiles instead (`BLAS.usesOwnProducts`);
/// it never overrides OpenBLAS's choice (`OPENBLAS_CORETYPE` is the user's to set).
public enum MatrixBackend {
    /// OpenBLAS's kernel family for this CPU, as `openblas_get_corename()` names it.
    public static var blasCore: String { BLAS.coreName }

    /// The int8 kernels' instruction path on this CPU: "vnni", "avx2" or "scalar".
    public static var int8Kernels: String { KernelPath.best.rawValue }

    /// Whether OpenBLAS runs its generic SSE3 kernels on a CPU with AVX2
    /// (our own kernels found it): float products far below the CPU's speed.
    public static var blasIsGenericOnThisCPU: Bool {
        blasCore == "Prescott" && KernelPath.avx2.isSupported
    }

    /// What runs the float matrix products: "openblas", or "avx512" / "avx2"
    /// where the engine's own tiles stand in for OpenBLAS's generic kernels.
    public static var floatProducts: String {
        guard BLAS.usesOwnProducts else { return "openblas" }
        return BLAS.ownProductsPath == Int32(SK_FLOAT_AVX512.rawValue) ? "avx512" : "avx2"
    }
}
