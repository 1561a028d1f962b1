import CoreMedia
import Foundation

/// The analyzer's bookkeeping for one transcriber module: its recognition
/// backend (one for the analyzer's life, so context carries across
/// finalizations and gaps) and how far its results are final.
///
/// Stream time 0 of the backend is the timeline time of the transcriber's
/// first audio (`base`); gaps in the input advance stream time too, so the
/// two clocks differ only by `base`.
struct TranscriberRunner {
    /// The module.
    let module: any AnalyzerModule
    /// The module's settings.
    let settings: TranscriberSettings
    /// The backend, from the transcriber's first audio on.
    var backend: (any RecognitionBackend)?
    /// Timeline time of the backend's stream time 0.
    var base: CMTime?
    /// Results are final up to this time.
    var finalizedThrough: CMTime
    /// Whether the task reading the backend's updates runs.
    var isReading = false
    /// The range of the last volatile result not yet replaced by a final one.
    var outstandingVolatile: CMTimeRange?
    /// Whether text was published, so that later phrases start with a space.
    var hasPublishedText = false
    /// Whether `setModules` removed the module: it finishes what it has, then
    /// its result sequence ends.
    var isRemoved = false

    /// A runner whose results are final through `finalizedThrough`.
    init(module: any AnalyzerModule, settings: TranscriberSettings, finalizedThrough: CMTime) {
        self.module = module
        self.settings = settings
        self.finalizedThrough = finalizedThrough
    }

    /// Timeline time of a stream time of the backend.
    func time(_ seconds: Double) -> CMTime {
        ModernResultMapping.time(seconds, after: base ?? .zero)
    }

    /// Stream time of a timeline time.
    func streamSeconds(_ time: CMTime) -> Double {
        (time - (base ?? .zero)).seconds
    }
}

/// What the speech detectors have reported: they mark everything up to
/// `reportedThrough` as speech or not.
struct DetectionProgress {
    /// Detections cover the timeline up to this time.
    var reportedThrough: CMTime?
    /// Where the speech being heard started, while it goes on.
    var speechStart: CMTime?
}

/// Holds an analyzer weakly, so that an input sequence that never ends does
/// not keep its analyzer alive (Apple's analyzer finishes on deallocation).
struct WeakAnalyzer: Sendable {
    /// The analyzer, while it exists.
    weak var analyzer: SpeechAnalyzer?

    /// Wraps `analyzer`.
    init(_ analyzer: SpeechAnalyzer) {
        self.analyzer = analyzer
    }
}
