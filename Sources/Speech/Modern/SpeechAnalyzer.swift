import AVFoundation
import CoreMedia
import Foundation

/// Analyzes audio with a set of modules (transcribers, a speech detector) and
/// publishes each module's results through the module's `results` sequence.
///
/// Input arrives as an `AsyncSequence` of `AnalyzerInput` or as an audio file.
/// The analyzer consumes one input sequence at a time; ending a sequence does
/// not finish the analysis. A session ends through a finish method
/// (`finalizeAndFinish(through:)`, `finalizeAndFinishThroughEndOfInput()`,
/// `finish(after:)`, `cancelAndFinishNow()`), the `finishAfterFile` parameter,
/// or deallocation. After it finishes the analyzer takes no more input or
/// modules, most methods do nothing, and the module result sequences end.
/// An error in the analyzer or a module finishes the session too, and that
/// error is thrown from every waiting method and every result sequence.
/// - Note: On Linux each transcriber module runs one session of
///   SpeechCompat's Whisper engine for the analyzer's life: live input is
///   recognized by its streaming recognizer, an audio file
///   (`inputAudioFile`, `analyzeSequence(from:)`) is decoded as a file, the
///   way `speech transcribe` decodes it. `finalize(through:)` finalizes the
///   words before that time and keeps later audio volatile, with the
///   finalized text as context. At most four analyses may run at once (`SPEECHCOMPAT_MAX_ANALYSES`
///   changes it); more fail with `SFSpeechError.Code.insufficientResources`.
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public final actor SpeechAnalyzer: Sendable {
    /// The analyzer's lifecycle.
    enum Phase {
        /// Taking input and modules.
        case active
        /// Finished: normally (`nil`) or by an error.
        case finished((any Error)?)
    }

    /// The type of the volatile-range handler.
    typealias VolatileRangeHandler = (_ range: CMTimeRange, _ changedStart: Bool, _ changedEnd: Bool) -> Void

    // MARK: Configuration

    /// The modules, in the order they were given.
    var moduleList: [any SpeechModule]
    /// The options given at creation.
    let analyzerOptions: Options
    /// The current context.
    var analysisContext: AnalysisContext
    /// Called when `volatileRange` changes.
    var volatileRangeChangedHandler: VolatileRangeHandler?
    /// Where recognition backends come from (the engine, or a scripted fake in tests).
    let sessionFactory: RecognitionSessionFactory
    /// Where the analyzer's tasks run (the system's, or a test's tracking scheduler).
    let scheduler: BridgeScheduler
    /// Where asset state (installed models, reservations) is kept.
    let assets: ModernAssets
    /// Identifies this analyzer to the modules it claims.
    let owner = AnalyzerOwnerToken()

    // MARK: State

    /// Active or finished.
    var phase: Phase = .active
    /// The generation of the input sequence being consumed; bumped by each
    /// `start`, so that a replaced sequence stops being consumed.
    var inputGeneration = 0
    /// The task consuming the current input sequence.
    let inputTask = LockedState<Task<Void, Never>?>(nil)
    /// Whether the current input sequence ended and was fully consumed.
    var inputExhausted = false
    /// End of the audio consumed so far; `nil` before any input.
    var consumedEnd: CMTime?
    /// The last input format found acceptable to the modules; `nil` after the
    /// modules change, so the next input is checked again.
    var checkedInputFormat: AVAudioFormat?
    /// The capture run (an `AVAudioEngine` input tap) whose failure ends the
    /// analysis; see `watchCapture(of:)`.
    var watchedCaptureOrigin: CaptureOrigin?
    /// Audio before this time was cancelled by `cancelAnalysis(before:)`.
    var cancelledBefore: CMTime = .negativeInfinity
    /// The current volatile range, as last reported.
    var currentVolatileRange: CMTimeRange?
    /// One runner per transcriber module, by module identity.
    var runners: [ObjectIdentifier: TranscriberRunner] = [:]
    /// The transcriber whose speech events the detectors report (the first one).
    var primaryRunner: ObjectIdentifier?
    /// What the detectors have reported so far.
    var detection = DetectionProgress()
    /// Methods waiting for a condition.
    var waiters: [Int: Waiter] = [:]
    /// The next waiter id.
    var nextWaiterID = 0
    /// The limited analysis slots this analyzer takes one of (`nil`: no limit).
    let analysisSlots: ModernAnalysisSlots?
    /// Whether this analysis holds one of the limited analysis slots.
    var holdsAnalysisSlot = false
    /// Where this analysis reports its model use.
    let modelRetention: ModelRetention
    /// Whether this analysis started using models.
    var usesModels = false

    // MARK: Creation

    /// Creates an analyzer with modules; add input with `start` or
    /// `analyzeSequence`.
    ///
    /// The module list may be empty; modules can be added or removed later.
    /// Each module can be used by one analyzer only.
    public init(modules: [any SpeechModule], options: Options? = nil) {
        self.init(modules: modules, options: options, analysisContext: AnalysisContext(),
                  volatileRangeChangedHandler: nil, inputLoop: nil)
    }

    /// Creates an analyzer that starts analyzing `inputSequence` on its own
    /// as input arrives.
    ///
    /// The handler reports the volatile range whenever it changes:
    /// `changedStart` means earlier results were finalized, `changedEnd` that
    /// analysis of later audio began.
    public init<InputSequence>(
        inputSequence: InputSequence,
        modules: [any SpeechModule],
        options: Options? = nil,
        analysisContext: AnalysisContext = .init(),
        volatileRangeChangedHandler: sending ((_ range: CMTimeRange, _ changedStart: Bool, _ changedEnd: Bool) -> Void)? = nil
    ) where InputSequence: Sendable, InputSequence: AsyncSequence, InputSequence.Element == AnalyzerInput {
        self.init(modules: modules, options: options, analysisContext: analysisContext,
                  volatileRangeChangedHandler: volatileRangeChangedHandler,
                  inputLoop: SpeechAnalyzer.inputLoop(for: inputSequence))
    }

    /// The one designated initializer.
    init(modules: [any SpeechModule], options: Options?, analysisContext: AnalysisContext,
         volatileRangeChangedHandler: sending VolatileRangeHandler?, inputLoop: InputLoop?) {
        moduleList = modules
        analyzerOptions = options ?? .default
        self.analysisContext = analysisContext
        self.volatileRangeChangedHandler = volatileRangeChangedHandler
        sessionFactory = ModernTestHooks.sessionFactory ?? .engine
        scheduler = ModernTestHooks.scheduler ?? .system
        analysisSlots = ModernTestHooks.analysisSlots
            ?? (ModernTestHooks.sessionFactory == nil ? ModernAnalysisSlots.shared : nil)
        assets = ModernAssets.current
        modelRetention = ModernTestHooks.modelRetention ?? .shared
        let identity = ObjectIdentifier(owner)
        var runners: [ObjectIdentifier: TranscriberRunner] = [:]
        var primary: ObjectIdentifier?
        var failure: (any Error)?
        for module in modules {
            guard let module = module as? any AnalyzerModule else {
                failure = failure ?? ModernErrors.unsupportedModule(module)
                continue
            }
            guard module.output.claim(by: identity) else {
                failure = failure ?? ModernErrors.moduleInUse(module)
                continue
            }
            if let settings = module.role.transcriberSettings {
                let id = ObjectIdentifier(module)
                runners[id] = TranscriberRunner(module: module, settings: settings, finalizedThrough: .zero)
                primary = primary ?? id
            }
        }
        self.runners = runners
        primaryRunner = primary
        inputGeneration = inputLoop == nil ? 0 : 1
        if let failure {
            phase = .finished(failure)
            for case let module as any AnalyzerModule in modules where module.output.claim(by: identity) {
                module.output.finish(throwing: module.role.reportsErrors ? failure : nil)
            }
            return
        }
        if let inputLoop {
            // The analyzer is fully initialized: the input task may use it now.
            let priority = analyzerOptions.priority
            let weakSelf = WeakAnalyzer(self)
            let task = scheduler.task(priority) {
                await inputLoop(weakSelf, 1)
            }
            inputTask.withLock { $0 = task }
        }
    }

    deinit {
        inputTask.withLock { $0?.cancel() }
        for runner in runners.values {
            runner.backend?.cancel()
            runner.module.output.finish(throwing: nil)
        }
        for case let module as any AnalyzerModule in moduleList where module.role.transcriberSettings == nil {
            module.output.finish(throwing: nil)
        }
        if holdsAnalysisSlot { analysisSlots?.release() }
        if usesModels { modelRetention.analysisEnded(retention: analyzerOptions.modelRetention) }
        for waiter in waiters.values { waiter.continuation.resume(throwing: CancellationError()) }
    }

    // MARK: Modules and context

    /// The analyzer's modules.
    public final var modules: [any SpeechModule] { moduleList }

    /// Replaces the modules. New modules analyze only audio consumed from now
    /// on; removed modules finish their pending results, then their result
    /// sequences end.
    ///
    /// Modules cannot be moved to a different analyzer. After the analyzer
    /// finishes this does nothing.
    /// - Throws: `SFSpeechError.Code.moduleOutputFailed` when a module belongs
    ///   to another analyzer or is not one of the framework's modules.
    public final func setModules(_ newModules: [any SpeechModule]) async throws {
        try throwIfFailed()
        guard case .active = phase else { return }
        let identity = ObjectIdentifier(owner)
        for module in newModules {
            guard let module = module as? any AnalyzerModule else { throw ModernErrors.unsupportedModule(module) }
            guard module.output.claim(by: identity) else { throw ModernErrors.moduleInUse(module) }
        }
        let newIDs = Set(newModules.map { ObjectIdentifier($0) })
        for old in moduleList where !newIDs.contains(ObjectIdentifier(old)) {
            removeModule(old)
        }
        let oldIDs = Set(moduleList.map { ObjectIdentifier($0) })
        for case let module as any AnalyzerModule in newModules where !oldIDs.contains(ObjectIdentifier(module)) {
            addModule(module)
        }
        moduleList = newModules
        checkedInputFormat = nil
        if primaryRunner.map({ runners[$0] == nil }) ?? true {
            primaryRunner = newModules.lazy.map { ObjectIdentifier($0) }.first { self.runners[$0] != nil }
        }
        updateVolatileRange()
        resumeSatisfiedWaiters()
    }

    /// The analysis context.
    public final var context: AnalysisContext {
        get async { analysisContext }
    }

    /// Replaces the analysis context (for example its contextual strings).
    /// - Note: On Linux the new contextual strings apply to transcribers
    ///   that have not heard audio yet.
    public final func setContext(_ newContext: AnalysisContext) async throws {
        try throwIfFailed()
        analysisContext = newContext
    }

    // MARK: Volatile range

    /// The range of results that may still change: from the first non-final
    /// time to the end of the input under analysis. Empty when every result
    /// is final; `nil` before any input.
    public final var volatileRange: CMTimeRange? { currentVolatileRange }

    /// Replaces the handler called when `volatileRange` changes. It may be
    /// called before the app has read the results it refers to.
    public final func setVolatileRangeChangedHandler(
        _ handler: sending ((_ range: CMTimeRange, _ changedStart: Bool, _ changedEnd: Bool) -> Void)?
    ) {
        volatileRangeChangedHandler = handler
    }

    /// Recomputes the volatile range and tells the handler if it changed.
    func updateVolatileRange() {
        guard case .active = phase, let end = consumedEnd else { return }
        var start = end
        for runner in runners.values where !runner.isRemoved {
            start = min(start, max(runner.finalizedThrough, cancelledBefore))
        }
        let range = CMTimeRange(start: start, end: end)
        guard range != currentVolatileRange else { return }
        let changedStart = currentVolatileRange?.start != range.start
        let changedEnd = currentVolatileRange?.end != range.end
        currentVolatileRange = range
        volatileRangeChangedHandler?(range, changedStart, changedEnd)
    }

    /// Throws the error that finished the analyzer, if one did.
    func throwIfFailed() throws {
        if case .finished(let error?) = phase { throw error }
    }
}

/// A unique object standing for one analyzer when modules are claimed (the
/// analyzer itself cannot be referenced while it is being initialized).
final class AnalyzerOwnerToken: Sendable {}
