// swift-tools-version:6.0
// SpeechCompat: Apple's Speech framework (legacy SFSpeechRecognizer and modern
// SpeechAnalyzer faces) for Linux, over a Whisper engine written in Swift.
import PackageDescription

let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "SpeechCompat",
    products: [
        // Library products carry Apple's module names so that Apple sample code
        // (`import Speech`, `import AVFoundation`) compiles unchanged.
        .library(name: "Speech", targets: ["Speech"]),
        .library(name: "AVFoundation", targets: ["AVFoundation"]),
        .library(name: "CoreMedia", targets: ["CoreMedia"]),
        .library(name: "AVFAudio", targets: ["AVFAudio"]),
        .library(name: "SpeechMigration", targets: ["SpeechMigration"]),
        .library(name: "SpeechMigrationTesting", targets: ["SpeechMigrationTesting"]),
        .library(name: "SpeechEngine", targets: ["SpeechEngine"]),
        .executable(name: "speech", targets: ["SpeechCLI"]),
    ],
    targets: [
        // MARK: C system libraries (Debian -dev packages)
        .systemLibrary(name: "CBLAS", path: "Compat/System/CBLAS", pkgConfig: "openblas",
                       providers: [.apt(["libopenblas-dev"])]),
        .systemLibrary(name: "CSndFile", path: "Compat/System/CSndFile", pkgConfig: "sndfile",
                       providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CALSA", path: "Compat/System/CALSA", pkgConfig: "alsa",
                       providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CSoxr", path: "Compat/System/CSoxr", pkgConfig: "soxr",
                       providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CZlib", path: "Compat/System/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        // The HTTP server of `speech serve` (SpeechService; README: why libmicrohttpd).
        .systemLibrary(name: "CMicroHTTPD", path: "Compat/System/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        // glibc's malloc.h (mallopt, malloc_trim, mallinfo2): the service's allocator
        // settings and the soak's live-heap samples. Part of libc: nothing to install.
        .systemLibrary(name: "CMalloc", path: "Compat/System/CMalloc"),
        // F16C half→float conversion (~20x faster than the generic Float16 path).
        .target(name: "CFloat16", path: "Compat/System/CFloat16"),
        // int8 matrix kernels (scalar, AVX2, AVX-512 VNNI; chosen at run time) for the
        // engine's 8-bit weights. Optimised in debug too, so the unit tests stay fast.
        .target(name: "CSpeechKernels", dependencies: ["CFloat16"], cSettings: [.unsafeFlags(["-O2"])]),

        // MARK: Engine (no Apple names in here)
        .target(name: "SpeechEngine",
                dependencies: ["CBLAS", "CSndFile", "CSoxr", "CFloat16", "CZlib", "CSpeechKernels"],
                swiftSettings: swift6),
        // WER/CER scoring with Whisper's text normalisers (eval, compare, migrate-test).
        .target(name: "SpeechEvaluation", swiftSettings: swift6),

        // MARK: Apple-shaped compatibility modules
        .target(name: "CoreMedia", path: "Compat/CoreMedia", swiftSettings: swift6),
        .target(name: "AVFoundation",
                dependencies: ["CoreMedia", "CSndFile", "CSoxr", "CALSA"],
                path: "Compat/AVFoundation", swiftSettings: swift6),
        .target(name: "AVFAudio", dependencies: ["AVFoundation"], path: "Compat/AVFAudio", swiftSettings: swift6),
        .target(name: "Speech",
                dependencies: ["SpeechEngine", "AVFoundation", "CoreMedia"],
                swiftSettings: swift6),
        .target(name: "SpeechMigration",
                dependencies: ["Speech", "SpeechEvaluation"],
                swiftSettings: swift6),
        // XCTest and Swift Testing helpers: equivalence within bounds, golden replay.
        .target(name: "SpeechMigrationTesting", dependencies: ["SpeechMigration"],
                swiftSettings: swift6),

        // MARK: The recognition service (`speech serve`): HTTP for any client, a unix socket for the faces
        .target(name: "SpeechService", dependencies: ["SpeechEngine", "Speech", "CMicroHTTPD", "CMalloc"],
                swiftSettings: swift6),

        // MARK: The `speech` command-line tool
        .executableTarget(name: "SpeechCLI",
                          dependencies: ["SpeechEngine", "SpeechEvaluation", "Speech", "SpeechMigration", "SpeechService"],
                          path: "Sources/speech", swiftSettings: swift6),

        // MARK: Samples (Apple-style programs run in tests)
        .executableTarget(name: "AudioRecorder", dependencies: ["AVFoundation"],
                          path: "Samples/AudioRecorder", swiftSettings: swift6),

        // Each face's main patterns (Samples/README.md); run on corpus audio by SpeechMigrationTests.
        .executableTarget(name: "FileTranscription", dependencies: ["Speech"], path: "Samples/FileTranscription",
                          swiftSettings: swift6),
        .executableTarget(name: "LiveMicrophone", dependencies: ["Speech"], path: "Samples/LiveMicrophone",
                          swiftSettings: swift6),
        .executableTarget(name: "DelegateRecognition", dependencies: ["Speech"], path: "Samples/DelegateRecognition",
                          swiftSettings: swift6),
        .executableTarget(name: "AlternativesAndConfidence", dependencies: ["Speech"], path: "Samples/AlternativesAndConfidence",
                          swiftSettings: swift6),
        .executableTarget(name: "ContextualStrings", dependencies: ["Speech"], path: "Samples/ContextualStrings",
                          swiftSettings: swift6),
        .executableTarget(name: "AssetManagement", dependencies: ["Speech"], path: "Samples/AssetManagement",
                          swiftSettings: swift6),
        .executableTarget(name: "SpeechDetection", dependencies: ["Speech"], path: "Samples/SpeechDetection",
                          swiftSettings: swift6),
        .executableTarget(name: "SpokenWord", dependencies: ["Speech"], path: "Samples/SpokenWord",
                          swiftSettings: swift6),
        .executableTarget(name: "CompareFaces", dependencies: ["SpeechMigration"], path: "Samples/CompareFaces",
                          swiftSettings: swift6),
        // The ways apps stop recognition (exit mid-decode, release, cancel): run many times by StopPatternTests.
        .executableTarget(name: "StopPatterns", dependencies: ["Speech"], path: "Samples/StopPatterns",
                          swiftSettings: swift6),
        // Code found in the wild (issue 15); run on corpus audio by CompatSampleProgramTests.
        .executableTarget(name: "AssetReaderTranscription", dependencies: ["Speech"],
                          path: "Samples/AssetReaderTranscription", swiftSettings: swift6),
        .executableTarget(name: "ObservableRecognizer", dependencies: ["Speech"], path: "Samples/ObservableRecognizer",
                          swiftSettings: swift6),
        .executableTarget(name: "SendableAudioFile", dependencies: ["Speech"], path: "Samples/SendableAudioFile",
                          swiftSettings: swift6),

        // Rare terms with and without a custom language model (Benchmarks/custom_lm.sh).
        .executableTarget(name: "CustomLanguageModelBenchmark", dependencies: ["Speech", "SpeechEvaluation"],
                          path: "Benchmarks/CustomLanguageModel", swiftSettings: swift6),

        // An hour of live audio through each face, memory/threads/fds sampled (Benchmarks/Soak/run.sh).
        .executableTarget(name: "SpeechSoak", dependencies: ["Speech", "CMalloc"], path: "Benchmarks/Soak",
                          exclude: ["run.sh"], swiftSettings: swift6),

        // Many recognitions at once through one face against the same one after another.
        .executableTarget(name: "SpeechConcurrency", dependencies: ["Speech"], path: "Benchmarks/Concurrency",
                          swiftSettings: swift6),

        // MARK: Migration guide examples (each: a before and an after half, run by SpeechMigrationTests)
        .executableTarget(name: "GuideRecognizerToAnalyzer", dependencies: ["Speech"],
                          path: "MigrationGuide/Examples/RecognizerToAnalyzer", swiftSettings: swift6),
        .executableTarget(name: "GuidePartialToVolatile", dependencies: ["Speech"],
                          path: "MigrationGuide/Examples/PartialToVolatile", swiftSettings: swift6),
        .executableTarget(name: "GuideAuthorizationToAssets", dependencies: ["Speech"],
                          path: "MigrationGuide/Examples/AuthorizationToAssets", swiftSettings: swift6),
        .executableTarget(name: "GuideOneMinuteToLongForm", dependencies: ["Speech", "SpeechMigration"],
                          path: "MigrationGuide/Examples/OneMinuteToLongForm", swiftSettings: swift6),

        // MARK: Tests
        // Shared fixtures (corpus paths, model location, synthesized audio) and the one test
        // environment of the faces: the scripted backend, the tracking scheduler, the manual clock.
        .target(name: "TestSupport", dependencies: ["SpeechEngine", "Speech", "SpeechEvaluation", "AVFoundation"],
                path: "Tests/TestSupport", swiftSettings: swift6),
        // Seeded, deterministic fuzzing of every file parser: mutator, targets, runner.
        // The tests run it briefly; Benchmarks/Fuzz runs it long.
        .target(name: "SpeechFuzzing", dependencies: ["SpeechEngine", "Speech", "SpeechEvaluation", "SpeechMigration"],
                path: "Tests/SpeechFuzzing", swiftSettings: swift6),
        .executableTarget(name: "SpeechFuzz", dependencies: ["SpeechFuzzing"], path: "Benchmarks/Fuzz",
                          exclude: ["run.sh"], swiftSettings: swift6),
        // The same targets under libFuzzer (Benchmarks/LibFuzzer/run.sh builds it with -sanitize=fuzzer).
        .executableTarget(name: "SpeechLibFuzzer", dependencies: ["SpeechFuzzing"], path: "Benchmarks/LibFuzzer",
                          exclude: ["run.sh"], swiftSettings: swift6),
        // Fast unit tests (debug).
        .testTarget(name: "SpeechEngineTests", dependencies: ["SpeechEngine", "TestSupport", "SpeechFuzzing"],
                    swiftSettings: swift6),
        .testTarget(name: "SpeechFuzzTests", dependencies: ["SpeechFuzzing", "SpeechEngine", "TestSupport"],
                    swiftSettings: swift6),
        .testTarget(name: "SpeechEvaluationTests", dependencies: ["SpeechEvaluation"],
                    swiftSettings: swift6),
        .testTarget(name: "CompatTests", dependencies: ["AVFoundation", "AVFAudio", "CoreMedia", "AudioRecorder",
                                                 "TestSupport"],
                    swiftSettings: swift6),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "SpeechEvaluation", "TestSupport"],
                    swiftSettings: swift6),
        .testTarget(name: "speechCLITests", dependencies: ["SpeechCLI", "TestSupport"],
                    swiftSettings: swift6),
        .testTarget(name: "SpeechMigrationTests",
                    dependencies: ["SpeechMigration", "SpeechMigrationTesting", "TestSupport",
                                   "GuideRecognizerToAnalyzer", "GuidePartialToVolatile", "GuideAuthorizationToAssets",
                                   "GuideOneMinuteToLongForm", "FileTranscription", "LiveMicrophone",
                                   "DelegateRecognition", "AlternativesAndConfidence", "ContextualStrings",
                                   "AssetManagement", "SpeechDetection", "CompareFaces", "StopPatterns",
                                   "AssetReaderTranscription", "ObservableRecognizer", "SendableAudioFile", "SpokenWord"],
                    swiftSettings: swift6),
        // The service over real sockets (curl); ServiceModelTests run the faces through it.
        .testTarget(name: "SpeechServiceTests", dependencies: ["SpeechService", "Speech", "TestSupport"],
                    swiftSettings: swift6),
        // Full-model tests on real speech (run in release: see README).
        .testTarget(name: "SpeechModelTests",
                    dependencies: ["SpeechEngine", "SpeechEvaluation", "TestSupport"],
                    swiftSettings: swift6),
    ]
)
