// libFuzzer entry for the SpeechFuzzing targets: coverage-guided fuzzing
// with Swift's `-sanitize=fuzzer` (see Benchmarks/LibFuzzer/run.sh).
//
// Built normally (no SPEECH_LIBFUZZER flag) this is a small program that
// says how to build it for fuzzing, so `swift build` of the package stays
// clean; built by run.sh with `-DSPEECH_LIBFUZZER -sanitize=fuzzer`,
// libFuzzer supplies `main` and calls `LLVMFuzzerTestOneInput` per input.
import Foundation
import SpeechFuzzing

/// The target named by `SPEECH_FUZZ_TARGET`, writing inputs to a private scratch folder.
enum LibFuzzerHarness {
    static let target: FuzzTarget = {
        let name = ProcessInfo.processInfo.environment["SPEECH_FUZZ_TARGET"] ?? "model-bin"
        guard let target = FuzzTarget.named(name) else {
            fatalError("SPEECH_FUZZ_TARGET=\(name) is not one of \(FuzzTarget.all.map(\.name))")
        }
        return target
    }()
    static let scratch: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("speech-libfuzzer-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()
    static let fileExtension = ProcessInfo.processInfo.environment["SPEECH_FUZZ_EXTENSION"] ?? "bin"

    /// Runs one input; a contract violation aborts, so libFuzzer keeps the input as a crash.
    static func run(_ bytes: [UInt8]) {
        let url = scratch.appendingPathComponent("input.\(fileExtension)")
        try? Data(bytes).write(to: url)
        let done = DispatchSemaphore(value: 0)
        let violation = Violation()
        Task {
            do { _ = try await target.execute(url) } catch { violation.set("\(error)") }
            done.signal()
        }
        done.wait()
        if let message = violation.message { fatalError("contract broken: \(message)") }
    }

    final class Violation: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: String?
        var message: String? { lock.withLock { stored } }
        func set(_ text: String) { lock.withLock { stored = text } }
    }
}

#if SPEECH_LIBFUZZER
/// libFuzzer's entry for programs that own `main` (SwiftPM names the
/// executable's entry `SpeechLibFuzzer_main`, so libFuzzer's own `main` is not linked).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// The callback libFuzzer's own `main` looks for.
@_cdecl("LLVMFuzzerTestOneInput")
public func speechFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    LibFuzzerHarness.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

@_cdecl("SpeechLibFuzzer_main")
public func speechLibFuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { data, size in speechFuzzOne(data, size) }
}
#else
@main
struct LibFuzzerUsage {
    static func main() {
        print("Build with Benchmarks/LibFuzzer/run.sh (swift build -Xswiftc -sanitize=fuzzer -Xswiftc -DSPEECH_LIBFUZZER).")
    }
}
#endif
