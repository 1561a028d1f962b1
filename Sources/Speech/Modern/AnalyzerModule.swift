import Foundation

/// What the analyzer needs from a module. The framework's modules implement
/// it; the analyzer drives modules only through it, never through their
/// public API, so apps cannot plug in modules of their own (as on Apple).
protocol AnalyzerModule: SpeechModule {
    /// How the module takes part in an analysis.
    var role: ModuleRole { get }
    /// The module's result channel.
    var output: any ModuleResultChannel { get }
    /// The pipeline a transcriber runs on, if it chose one (nil: the analyzer's).
    var pipelineFactory: RecognitionSessionFactory? { get }
}

/// How a module takes part in an analysis.
enum ModuleRole: Sendable, Equatable {
    /// Recognises text with an engine session of its own.
    case transcriber(TranscriberSettings)
    /// Marks speech and non-speech ranges, from a transcriber's session.
    case detector(DetectorSettings)

    /// The transcriber settings, if the module is a transcriber.
    var transcriberSettings: TranscriberSettings? {
        if case .transcriber(let settings) = self { return settings }
        return nil
    }

    /// The detector settings, if the module is a speech detector.
    var detectorSettings: DetectorSettings? {
        if case .detector(let settings) = self { return settings }
        return nil
    }

    /// Whether the module's result sequence throws the analysis error. A
    /// detector created with `reportResults: false` reports no errors.
    var reportsErrors: Bool {
        detectorSettings.map(\.reportsResults) ?? true
    }
}

/// What a speech detector was configured with.
struct DetectorSettings: Sendable, Hashable {
    /// How readily audio counts as speech.
    var sensitivity: SpeechDetector.SensitivityLevel
    /// Whether results (and errors) are published at all.
    var reportsResults: Bool
}

/// A module's result stream, seen by the analyzer without its element type.
protocol ModuleResultChannel: AnyObject, Sendable {
    /// Marks the module as used by `analyzer`. Returns `false` if another
    /// analyzer (or an earlier, finished one) already used it.
    func claim(by analyzer: ObjectIdentifier) -> Bool
    /// Publishes a transcription (ignored by detectors).
    func publish(_ transcription: ModernTranscription)
    /// Publishes a detection (ignored by transcribers).
    func publish(_ detection: ModernDetection)
    /// Ends the stream normally, or by throwing `error`.
    func finish(throwing error: (any Error)?)
    /// Whether the stream was ended (tests check that nothing ended it early).
    var isFinished: Bool { get }
}

/// The result stream of one module: made once, handed out by `results`,
/// fed and finished by the analyzer that claims the module.
final class ModuleOutput<Element: Sendable>: ModuleResultChannel {
    /// The sequence `results` returns; the same one on every access.
    let stream: AsyncThrowingStream<Element, any Error>
    private let continuation: AsyncThrowingStream<Element, any Error>.Continuation
    private let owner = LockedState<ObjectIdentifier?>(nil)
    private let finished = LockedState(false)
    private let makeFromTranscription: @Sendable (ModernTranscription) -> Element?
    private let makeFromDetection: @Sendable (ModernDetection) -> Element?

    /// Creates a channel whose elements are made by the given closures;
    /// a closure returning `nil` drops the update.
    init(transcription: @escaping @Sendable (ModernTranscription) -> Element? = { _ in nil },
         detection: @escaping @Sendable (ModernDetection) -> Element? = { _ in nil }) {
        (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self, throwing: (any Error).self)
        makeFromTranscription = transcription
        makeFromDetection = detection
    }

    func claim(by analyzer: ObjectIdentifier) -> Bool {
        owner.withLock { owner in
            if let owner { return owner == analyzer }
            owner = analyzer
            return true
        }
    }

    func publish(_ transcription: ModernTranscription) {
        if let element = makeFromTranscription(transcription) { continuation.yield(element) }
    }

    func publish(_ detection: ModernDetection) {
        if let element = makeFromDetection(detection) { continuation.yield(element) }
    }

    func finish(throwing error: (any Error)?) {
        finished.withLock { $0 = true }
        continuation.finish(throwing: error)
    }

    var isFinished: Bool {
        finished.withLock { $0 }
    }
}
