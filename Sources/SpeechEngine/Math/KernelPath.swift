import CSpeechKernels
import Foundation

/// The instruction path of the int8 kernels: the best the CPU runs, or one
/// forced (tests check every path against sgemm on any machine that runs it;
/// `SPEECHCOMPAT_INT8_KERNEL=scalar|avx2|vnni` forces one process-wide, to
/// measure a path the CI machines take on a machine that has a faster one).
enum KernelPath: String, Sendable, CaseIterable {
    case scalar, avx2, vnni

    /// The path `multiply` takes unless told otherwise: the environment's
    /// choice when this CPU runs it, else the fastest.
    static let best: KernelPath = {
        if let forced = ProcessInfo.processInfo.environment["SPEECHCOMPAT_INT8_KERNEL"].flatMap(KernelPath.init),
           forced.isSupported {
            return forced
        }
        return KernelPath(sk_best_path())
    }()

    init(_ path: sk_path) {
        switch path {
        case SK_PATH_VNNI: self = .vnni
        case SK_PATH_AVX2: self = .avx2
        default: self = .scalar
        }
    }

    /// Whether this CPU has the instructions.
    var isSupported: Bool { sk_path_supported(kernel) != 0 }

    var kernel: sk_path {
        switch self {
        case .scalar: SK_PATH_SCALAR
        case .avx2: SK_PATH_AVX2
        case .vnni: SK_PATH_VNNI
        }
    }
}
