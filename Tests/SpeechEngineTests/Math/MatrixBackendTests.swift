import Testing
@testable import SpeechEngine

/// What benchmarks report about the kernels: OpenBLAS's own name for the
/// family it chose (the one its build configuration string names too), and
/// the int8 path the engine's kernels take on this CPU.
@Suite struct MatrixBackendTests {
    @Test func theBLASCoreIsTheOneOpenBLASNamesInItsConfiguration() {
        let core = MatrixBackend.blasCore
        #expect(!core.isEmpty && core != "unknown")
        let configuration = BLAS.configuration
        #expect(configuration.contains(core), "\(core) not in \(configuration)")
    }

    @Test func theInt8PathIsTheKernelsBestAndTheGenericWarningNeedsAVX2() {
        #expect(MatrixBackend.int8Kernels == KernelPath.best.rawValue)
        #expect(KernelPath.best.isSupported)
        if MatrixBackend.blasIsGenericOnThisCPU {
            #expect(MatrixBackend.blasCore == "Prescott" && KernelPath.avx2.isSupported)
        }
        if MatrixBackend.blasCore != "Prescott" { #expect(!MatrixBackend.blasIsGenericOnThisCPU) }
    }
}
