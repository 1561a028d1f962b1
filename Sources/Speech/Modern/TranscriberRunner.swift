import CoreMedia
import Foundation

/// One engine session of a transcriber: it takes a contiguous stretch of the
/// analyzer's input, from its first audio until it is finished (at a
/// finalization point, a large gap in the input, or the end).
struct SessionSegment: Sendable {
    /// Identifies the session in the analyzer's `segments` table.
    let id: Int
    /// The engine session.
    let session: any RecognitionSession
}

/// What the analyzer knows about one session.
struct SegmentRecord {
    /// The engine session, until its events end.
    var session: any RecognitionSession
    /// Timeline time of the session's first sample; `nil` until audio arrives.
    var base: CMTime?
    /// Timeline time just after the session's last sample.
    var end: CMTime?
    /// When the session ends, results are final through this time (its end,
    /// or the start of the next session if that came later: the gap between
    /// them held no audio).
    var finalThrough: CMTime?
}

/// The analyzer's bookkeeping for one transcriber module: its chain of engine
/// sessions and how far its results are final.
struct TranscriberRunner {
    /// The module.
    let module: any AnalyzerModule
    /// The module's settings.
    let settings: TranscriberSettings
    /// Results are final up to this time.
    var finalizedThrough: CMTime
    /// The session taking audio now, if any.
    var current: SessionSegment?
    /// Hands sessions, in order, to the task that reads their events.
    var chain: AsyncStream<SessionSegment>.Continuation
    /// The stream `chain` feeds; taken by the events task when it starts.
    var pendingChain: AsyncStream<SessionSegment>?
    /// Whether the events task was started.
    var isReading = false
    /// Sessions started whose events have not ended yet.
    var openSessions = 0
    /// The session ended most recently (asked to finish), if any.
    var lastEndedSegment: Int?
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
        let (stream, continuation) = AsyncStream.makeStream(of: SessionSegment.self)
        chain = continuation
        pendingChain = stream
    }
}

/// What the speech detectors have reported: they mark everything up to
/// `reportedThrough` as speech or not.
struct DetectionProgress {
    /// Detections cover the timeline up to this time.
    var reportedThrough: CMTime?
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
