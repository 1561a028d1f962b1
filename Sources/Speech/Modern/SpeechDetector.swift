import AVFoundation
import CoreMedia
import Foundation

/// A module that detects speech in the audio, for example to end a
/// recording when the speaker stops.
///
/// It works only together with a `SpeechTranscriber` or
/// `DictationTranscriber` in the same analyzer, and gates transcription on
/// detected voice. With `reportResults: false` (the default) it publishes no
/// results and no errors.
/// - Note: On Linux the detector reads the first transcriber's engine session:
///   ranges the engine transcribed as speech are reported with
///   `speechDetected == true`, the gaps between them with `false`. The
///   sensitivity sets Whisper's no-speech threshold for the transcribers of the
///   analyzer (low 0.4, medium 0.6, high 0.8). Without a transcriber the
///   detector reports nothing.
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public final class SpeechDetector: SpeechModule {
    /// How the analyzer should run this module.
    let settings: DetectorSettings
    /// The result channel behind `results`.
    let resultOutput: ModuleOutput<Result>

    /// Creates a detector with the given sensitivity.
    /// - Parameter reportResults: whether results and errors are published.
    public init(detectionOptions: DetectionOptions, reportResults: Bool) {
        settings = DetectorSettings(sensitivity: detectionOptions.sensitivityLevel, reportsResults: reportResults)
        resultOutput = ModuleOutput(detection: { detection in
            reportResults ? Result(detection) : nil
        })
    }

    /// Creates a detector with medium sensitivity that reports no results.
    public convenience init() {
        self.init(detectionOptions: DetectionOptions(sensitivityLevel: .medium), reportResults: false)
    }

    /// How readily audio counts as speech.
    public enum SensitivityLevel: Int, CaseIterable, Sendable, Equatable, Hashable {
        /// Only clear speech counts.
        case low
        /// The recommended level.
        case medium
        /// Faint speech counts too.
        case high
    }

    /// The detector's options.
    public struct DetectionOptions: Sendable, Equatable, Hashable {
        /// How readily audio counts as speech.
        public let sensitivityLevel: SensitivityLevel

        /// Creates options with a sensitivity level.
        public init(sensitivityLevel: SensitivityLevel) {
            self.sensitivityLevel = sensitivityLevel
        }
    }

    /// Whether a range of audio holds speech.
    public struct Result: SpeechModuleResult, Sendable, CustomStringConvertible {
        /// The audio this result describes.
        public let range: CMTimeRange
        /// Detection results are final up to this time.
        public let resultsFinalizationTime: CMTime
        /// Whether the range holds speech.
        public let speechDetected: Bool

        /// The range and verdict, for debugging.
        public var description: String {
            "SpeechDetector.Result(\(range.start.seconds)–\(range.end.seconds) s: "
                + (speechDetected ? "speech)" : "no speech)")
        }

        /// Creates a result from a mapped detection.
        init(_ detection: ModernDetection) {
            range = detection.range
            resultsFinalizationTime = detection.finalizationTime
            speechDetected = detection.speechDetected
        }
    }

    /// The detection results, in order; ends when the analyzer finishes.
    /// Empty unless the detector was created with `reportResults: true`.
    public final var results: some Sendable & AsyncSequence<Result, any Error> {
        resultOutput.stream
    }

    /// The formats the detector accepts.
    /// - Note: On Linux: 16 kHz mono Int16, then 16 kHz mono Float32 (the
    ///   detector has no assets of its own).
    public final var availableCompatibleAudioFormats: [AVAudioFormat] {
        ModernAudioFormats.analyzerFormats
    }
}

@available(macOS 26.0, iOS 26.0, *)
extension SpeechDetector: AnalyzerModule {
    var role: ModuleRole { .detector(settings) }
    var output: any ModuleResultChannel { resultOutput }
    var pipelineFactory: RecognitionSessionFactory? { nil }
}
