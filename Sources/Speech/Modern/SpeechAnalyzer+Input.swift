import AVFoundation
import CoreMedia
import Foundation

@available(macOS 26.0, iOS 26.0, *)
extension SpeechAnalyzer {
    /// Consumes an input sequence: takes the analyzer (weakly) and the
    /// sequence's generation, returns when the sequence ends or is replaced.
    typealias InputLoop = @Sendable (_ analyzer: WeakAnalyzer, _ generation: Int) async -> Void

    /// The consumption loop for a sequence, with the sequence's type erased.
    static func inputLoop<InputSequence>(for sequence: InputSequence) -> InputLoop
    where InputSequence: Sendable, InputSequence: AsyncSequence, InputSequence.Element == AnalyzerInput {
        { weakAnalyzer, generation in
            do {
                for try await input in sequence {
                    guard let analyzer = weakAnalyzer.analyzer,
                          await analyzer.consume(input, generation: generation) else { return }
                }
                await weakAnalyzer.analyzer?.inputSequenceEnded(generation: generation)
            } catch {
                await weakAnalyzer.analyzer?.inputSequenceFailed(error, generation: generation)
            }
        }
    }

    /// Starts autonomous analysis of a new input sequence and returns at once.
    ///
    /// Autonomous analysis of the previous sequence stops: its unconsumed
    /// audio is ignored, and what was consumed is still analyzed. After the
    /// analyzer finishes this does nothing.
    public final func start<InputSequence>(inputSequence: InputSequence) async throws
    where InputSequence: Sendable, InputSequence: AsyncSequence, InputSequence.Element == AnalyzerInput {
        try throwIfFailed()
        _ = beginInput(SpeechAnalyzer.inputLoop(for: inputSequence))
    }

    /// Analyzes an input sequence until it ends, and returns the time just
    /// after the last audio consumed (from this or an earlier sequence), or
    /// `nil` if there was none.
    ///
    /// Analysis of the audio may still be pending when this returns: call a
    /// finalize or finish method next. Ending the sequence does not finish
    /// the analyzer.
    @discardableResult
    public final func analyzeSequence<InputSequence>(_ inputSequence: InputSequence) async throws -> CMTime?
    where InputSequence: Sendable, InputSequence: AsyncSequence, InputSequence.Element == AnalyzerInput {
        try throwIfFailed()
        return try await analyze(SpeechAnalyzer.inputLoop(for: inputSequence))
    }

    /// Consumes input through `loop` until it ends; returns the end of the
    /// audio consumed (`nil` if none).
    func analyze(_ loop: @escaping InputLoop) async throws -> CMTime? {
        guard let task = beginInput(loop) else { return consumedEnd }
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        try throwIfFailed()
        return consumedEnd
    }

    /// Replaces the input sequence being consumed by `loop`; returns the task
    /// consuming it, or `nil` when the analyzer has finished.
    func beginInput(_ loop: @escaping InputLoop) -> Task<Void, Never>? {
        guard case .active = phase else { return nil }
        inputGeneration += 1
        inputExhausted = false
        let generation = inputGeneration
        let weakSelf = WeakAnalyzer(self)
        let task = scheduler.task(analyzerOptions.priority) {
            await loop(weakSelf, generation)
        }
        inputTask.withLock { previous in
            previous?.cancel()
            previous = task
        }
        return task
    }

    /// The current sequence ended and every input was consumed.
    func inputSequenceEnded(generation: Int) {
        guard generation == inputGeneration, case .active = phase else { return }
        inputExhausted = true
        resumeSatisfiedWaiters()
    }

    /// The current sequence threw: the analysis fails with its error.
    func inputSequenceFailed(_ error: any Error, generation: Int) {
        guard generation == inputGeneration else { return }
        if error is CancellationError {
            // The consuming task was cancelled (a new `start`, or the caller of
            // `analyzeSequence` was cancelled): not a failure of the analysis.
            return
        }
        fail(error)
    }

    /// Takes one input: checks its format and time-code, places it on the
    /// timeline, and hands its samples to every transcriber.
    /// Returns `false` when the sequence should stop being consumed.
    func consume(_ input: AnalyzerInput, generation: Int) -> Bool {
        take(generation: generation) {
            let placement = try place(input)
            watchCapture(of: input.buffer)
            let samples = try ModernAudioFormats.samples(of: input.buffer)
            try feed(.live(samples), startingAt: placement.start, gap: placement.gap)
            consumedEnd = placement.start + placement.duration
        }
    }

    /// Listens for the failure of the capture run `buffer` came from (an
    /// input tap's buffers, directly or through `AVAudioConverter`), once
    /// per run: a device that vanishes mid-stream ends the analysis instead
    /// of leaving it waiting for input forever.
    func watchCapture(of buffer: AVAudioPCMBuffer) {
        guard let origin = buffer.captureOrigin, origin !== watchedCaptureOrigin else { return }
        watchedCaptureOrigin = origin
        let weakSelf = WeakAnalyzer(self)
        origin.whenDeviceFails { deviceError in
            Task { await weakSelf.analyzer?.captureDeviceVanished(deviceError) }
        }
    }

    /// The capture device went away: everything consumed is finalized (its
    /// final results are published, nothing recognized is lost), then the
    /// analysis fails with `audioReadFailed`, which every waiting method and
    /// result sequence throws.
    func captureDeviceVanished(_ deviceError: NSError) async {
        guard case .active = phase else { return }
        let error = ErrorMapping.speechError(for: ErrorMapping.captureDeviceVanished(deviceError))
        try? await finalize(through: nil)
        fail(error)
    }

    /// Takes a whole recording (an audio file's samples at the engine's
    /// rate), placed after the input consumed so far and decoded as a file.
    func consumeRecording(_ samples: [Float], generation: Int) -> Bool {
        take(generation: generation) {
            guard !samples.isEmpty else { return }
            let start = consumedEnd ?? .zero
            try feed(.recording(samples), startingAt: start, gap: .zero)
            consumedEnd = start + CMTime(value: CMTimeValue(samples.count), timescale: ModernAudioFormats.sampleRate)
        }
    }

    /// Runs one step of consumption for the current generation: a failure
    /// fails the analysis; success moves the volatile range and the waiters.
    private func take(generation: Int, _ step: () throws -> Void) -> Bool {
        guard generation == inputGeneration, case .active = phase else { return false }
        do {
            try step()
        } catch {
            fail(error)
            return false
        }
        updateVolatileRange()
        resumeSatisfiedWaiters()
        return true
    }

    /// Where an input goes on the timeline.
    struct Placement {
        /// Timeline time of its first sample.
        var start: CMTime
        /// Its duration.
        var duration: CMTime
        /// Silence between the previous input and this one.
        var gap: CMTime
    }

    /// Checks an input's format and time-code and places it on the timeline.
    /// - Throws: `incompatibleAudioFormats` when the modules share no format;
    ///   `unexpectedAudioFormat` for a buffer the modules cannot take (the
    ///   analyzer never converts buffers); `audioDisordered` for a
    ///   `bufferStartTime` that overlaps or precedes earlier input.
    func place(_ input: AnalyzerInput) throws -> Placement {
        let format = input.buffer.format
        if checkedInputFormat != format {
            // Checked once per format change (and per module change), not per buffer:
            // the check reads the modules' asset state.
            let moduleFormats = moduleList.compactMap { ($0 as? any AnalyzerModule).map { ModernAudioFormats.formats(for: $0.role) } }
            try ModernAudioFormats.checkInput(format, moduleFormats: moduleFormats)
            checkedInputFormat = format
        }
        let rate = CMTimeScale(format.sampleRate.rounded())
        let duration = CMTime(value: CMTimeValue(input.buffer.frameLength), timescale: rate)
        let expected = consumedEnd ?? .zero
        guard let start = input.bufferStartTime else {
            return Placement(start: expected, duration: duration, gap: .zero)
        }
        guard start.isNumeric else { throw ModernErrors.disordered(start, expected: expected) }
        guard let previousEnd = consumedEnd else {
            return Placement(start: start, duration: duration, gap: .zero)
        }
        // Half a sample of tolerance for time-codes rounded to another timescale.
        let tolerance = CMTime(value: 1, timescale: 2 * rate)
        if start + tolerance < previousEnd { throw ModernErrors.disordered(start, expected: previousEnd) }
        let gap = start > previousEnd ? start - previousEnd : .zero
        return Placement(start: max(start, previousEnd), duration: duration, gap: gap)
    }
}
