import AVFoundation
import CoreMedia
import Foundation
import Speech

/// The modern face's pipeline — `SpeechAnalyzer` with a
/// `DictationTranscriber` — as the backend of a legacy task, so that code
/// keeps `SFSpeechRecognizer`, `SFSpeechRecognitionTask` and its own
/// `SFSpeechRecognitionTaskDelegate` while the modern pipeline recognizes.
///
/// The verbs are the modern API's own calls: live samples become
/// `AnalyzerInput` buffers (a gap moves the next buffer's start time), a
/// recording (a URL request's file) is analyzed as an `AVAudioFile`,
/// `commit(throughSeconds:)` is `finalize(through:)`, `finish()` is
/// `finalizeAndFinishThroughEndOfInput()` and `cancel()` is
/// `cancelAndFinishNow()`. `DictationTranscriber` is the modern module Apple
/// names for `SFSpeechRecognizer`'s use cases; it is also the one whose
/// punctuation can be turned off, as legacy requests do by default.
///
/// Not mapped: the modern API reports no speech start or end without a
/// `SpeechDetector` (which would change what is recognized), so speech
/// starts at the first result with text; it gives no score per
/// alternative, so alternatives carry `unknownScore`.
final class ModernPipelineBackend: RecognitionBackend {
    let updates: AsyncStream<SessionUpdate>
    private let commands: AsyncStream<Command>.Continuation
    private let output: UpdateOutput
    private let analyzer = AnalyzerSlot()

    /// What the legacy task asked for, in the order it asked.
    enum Command: Sendable {
        case live([Float])
        case gap(Double)
        case recording([Float])
        case commit(Double)
        case finish
    }

    /// An alternative's score when the pipeline underneath gives none.
    static let unknownScore = -Double.infinity

    /// Starts the pipeline for `locale` with the legacy request's configuration.
    init(locale: Locale, configuration: RecognitionConfiguration) {
        let (updates, continuation) = AsyncStream.makeStream(of: SessionUpdate.self, bufferingPolicy: .unbounded)
        let (commandStream, commands) = AsyncStream.makeStream(of: Command.self, bufferingPolicy: .unbounded)
        self.updates = updates
        self.commands = commands
        let output = UpdateOutput(continuation)
        self.output = output
        let analyzer = self.analyzer
        Task.detached(priority: .userInitiated) {
            await Self.run(locale: locale, configuration: configuration, commands: commandStream, output: output,
                           analyzer: analyzer)
        }
    }

    func append(_ samples: [Float]) { commands.yield(.live(samples)) }
    func appendGap(seconds: Double) { commands.yield(.gap(seconds)) }
    func appendRecording(_ samples: [Float]) { commands.yield(.recording(samples)) }
    func commit(throughSeconds seconds: Double) { commands.yield(.commit(seconds)) }
    func finish() {
        commands.yield(.finish)
        commands.finish()
    }

    /// Stops at once: the analyzer is cancelled, later updates are dropped.
    func cancel() {
        commands.finish()
        output.end(.failed(CancellationError()))
        if let analyzer = analyzer.current {
            Task.detached { await analyzer.cancelAndFinishNow() }
        }
    }

    // MARK: The pipeline

    /// Sets the analyzer up, then carries out the commands in order.
    private static func run(locale: Locale, configuration: RecognitionConfiguration,
                            commands: AsyncStream<Command>, output: UpdateOutput,
                            analyzer slot: AnalyzerSlot) async {
        do {
            guard let supported = await DictationTranscriber.supportedLocale(equivalentTo: locale) else {
                throw SFSpeechError(.cannotAllocateUnsupportedLocale, userInfo: [
                    NSLocalizedDescriptionKey: "DictationTranscriber does not support \(locale.identifier)."])
            }
            let transcriber = transcriber(for: supported, configuration: configuration)
            let analyzer = SpeechAnalyzer(modules: [transcriber])
            slot.set(analyzer)
            guard !output.hasEnded else {
                await analyzer.cancelAndFinishNow()
                return
            }
            if !configuration.phrases.isEmpty {
                let context = AnalysisContext()
                context.contextualStrings[.general] = configuration.phrases
                try await analyzer.setContext(context)
            }
            // A failed analysis fails the stream at once, not at the next verb.
            let reader = Task {
                do { try await read(transcriber.results, into: output) } catch { output.end(.failed(error)) }
            }
            var feeder = Feeder(analyzer: analyzer)
            defer { feeder.removeRecordingFile() }
            for await command in commands {
                guard !output.hasEnded else { break }
                if try await feeder.perform(command) {
                    await reader.value
                    output.end(.finished)
                }
            }
            reader.cancel()
        } catch {
            output.end(.failed(error))
        }
    }

    /// The modern module a legacy request's configuration describes.
    static func transcriber(for locale: Locale, configuration: RecognitionConfiguration) -> DictationTranscriber {
        var hints: Set<DictationTranscriber.ContentHint> = []
        if let model = configuration.customLanguageModel {
            hints.insert(.customizedLanguage(modelConfiguration: SFSpeechLanguageModel.Configuration(
                languageModel: model.languageModel, vocabulary: model.vocabulary,
                weight: NSNumber(value: model.weight))))
        }
        var reporting: Set<DictationTranscriber.ReportingOption> = []
        if configuration.reportsVolatileResults { reporting.insert(.volatileResults) }
        if configuration.alternativeCount > 1 { reporting.insert(.alternativeTranscriptions) }
        if configuration.prefersLowLatency { reporting.insert(.frequentFinalization) }
        return DictationTranscriber(
            locale: locale, contentHints: hints,
            transcriptionOptions: configuration.addsPunctuation ? [.punctuation] : [],
            reportingOptions: reporting,
            attributeOptions: configuration.wordTimestamps ? [.audioTimeRange, .transcriptionConfidence] : [])
    }

    /// Maps the transcriber's results to updates until they end.
    private static func read(_ results: some AsyncSequence<DictationTranscriber.Result, any Error>,
                             into output: UpdateOutput) async throws {
        var heardSpeech = false
        var processed = 0.0
        for try await result in results {
            let span = span(of: result)
            if !heardSpeech, !span.text.isEmpty {
                heardSpeech = true
                output.yield(.speechStarted(atSeconds: span.words.first?.startSeconds ?? span.startSeconds))
            }
            output.yield(result.isFinal ? .final(span) : .volatile(span))
            if span.endSeconds > processed {
                processed = span.endSeconds
                output.yield(.progress(processedSeconds: processed))
            }
        }
    }

    /// A modern result in the Bridge's terms: its range, text, timed words
    /// (one per run with a time range; untimed text such as punctuation
    /// joins the word before) and alternatives.
    static func span(of result: DictationTranscriber.Result) -> RecognizedSpan {
        var words: [RecognizedWord] = []
        let text = result.text
        for run in text.runs {
            let piece = String(text[run.range].characters)
            if let range = run.audioTimeRange {
                words.append(RecognizedWord(text: piece, startSeconds: range.start.seconds,
                                            endSeconds: range.end.seconds,
                                            confidence: run.transcriptionConfidence ?? 0))
            } else if let last = words.indices.last {
                words[last].text += piece
            }
        }
        let plain = { (text: AttributedString) in
            String(text.characters).trimmingCharacters(in: .whitespaces)
        }
        return RecognizedSpan(startSeconds: result.range.start.seconds, endSeconds: result.range.end.seconds,
                              text: plain(text), words: words,
                              alternatives: result.alternatives.map { (text: plain($0), score: unknownScore) })
    }
}

extension ModernPipelineBackend {
    /// The analyzer, once made, for `cancel()` to reach from any thread.
    final class AnalyzerSlot: Sendable {
        private let analyzer = LockedState<SpeechAnalyzer?>(nil)

        var current: SpeechAnalyzer? { analyzer.withLock { $0 } }

        func set(_ value: SpeechAnalyzer) { analyzer.withLock { $0 = value } }
    }

    /// Hands the legacy task's audio to the analyzer as the modern API takes it.
    struct Feeder {
        let analyzer: SpeechAnalyzer
        private var input: AsyncStream<AnalyzerInput>.Continuation?
        private var streamSeconds = 0.0
        private var gapPending = false
        private var recordingFile: URL?

        init(analyzer: SpeechAnalyzer) {
            self.analyzer = analyzer
        }

        /// Carries out one command; true once the analysis has finished.
        mutating func perform(_ command: Command) async throws -> Bool {
            switch command {
            case .live(let samples):
                try await appendLive(samples)
            case .gap(let seconds):
                streamSeconds += max(0, seconds)
                gapPending = true
            case .recording(let samples):
                if input == nil, recordingFile == nil {
                    try await analyzeRecording(samples)
                } else {
                    // After live audio a recording continues the same stream.
                    try await appendLive(samples)
                }
            case .commit(let seconds):
                try await analyzer.finalize(through: Self.time(seconds))
            case .finish:
                if input == nil, recordingFile == nil {
                    // Nothing was heard: there is no input to wait for.
                    await analyzer.cancelAndFinishNow()
                } else {
                    input?.finish()
                    try await analyzer.finalizeAndFinishThroughEndOfInput()
                }
                return true
            }
            return false
        }

        private mutating func appendLive(_ samples: [Float]) async throws {
            guard !samples.isEmpty else { return }
            if input == nil {
                let (sequence, continuation) = AsyncStream.makeStream(of: AnalyzerInput.self,
                                                                      bufferingPolicy: .unbounded)
                try await analyzer.start(inputSequence: sequence)
                input = continuation
            }
            let buffer = try Self.buffer(samples)
            input?.yield(gapPending ? AnalyzerInput(buffer: buffer, bufferStartTime: Self.time(streamSeconds))
                                    : AnalyzerInput(buffer: buffer))
            gapPending = false
            streamSeconds += Double(samples.count) / Self.sampleRate
        }

        /// A recording is analyzed as a file, the way the modern face
        /// decodes files (whole-file decoding, not the live path).
        private mutating func analyzeRecording(_ samples: [Float]) async throws {
            guard !samples.isEmpty else { return }
            let url = try MonoAudioConverter.writeTemporaryRecording(samples)
            recordingFile = url
            let file = try AVAudioFile(forReading: url)
            try await analyzer.start(inputAudioFile: file, finishAfterFile: false)
            streamSeconds += Double(samples.count) / Self.sampleRate
        }

        /// Deletes the recording's temporary file.
        func removeRecordingFile() {
            if let recordingFile { try? FileManager.default.removeItem(at: recordingFile) }
        }

        static let sampleRate = ModernPipelineBackend.sampleRate

        static func time(_ seconds: Double) -> CMTime {
            CMTime(value: CMTimeValue((seconds * sampleRate).rounded()), timescale: CMTimeScale(sampleRate))
        }

        static func buffer(_ samples: [Float]) throws -> AVAudioPCMBuffer {
            guard let buffer = MonoAudioConverter.buffer(samples[...]) else {
                throw MigrationError(.adapterFailure, "A buffer of \(samples.count) samples could not be made.")
            }
            return buffer
        }
    }
}
