import Foundation
import Speech

extension LegacyPipelineBackend {
    /// One legacy task of the stream: where its audio starts and ends in
    /// stream time, and the updates held until the tasks before it end.
    /// Guarded by the backend's lock (and, for the observer's fields, by
    /// the recognizer's serial queue).
    final class TaskRecord: @unchecked Sendable {
        let startSeconds: Double
        let request: SFSpeechRecognitionRequest
        let recordingFile: URL?
        var endSeconds: Double?
        var task: SFSpeechRecognitionTask?
        /// Strong: the task holds its delegate weakly.
        var observer: TaskObserver?
        var held: [SessionUpdate] = []
        var hasEnded = false

        init(startSeconds: Double, request: SFSpeechRecognitionRequest, recordingFile: URL?) {
            self.startSeconds = startSeconds
            self.request = request
            self.recordingFile = recordingFile
        }

        var bufferRequest: SFSpeechAudioBufferRecognitionRequest? {
            request as? SFSpeechAudioBufferRecognitionRequest
        }

        func removeRecordingFile() {
            if let recordingFile { try? FileManager.default.removeItem(at: recordingFile) }
        }
    }

    /// The delegate of one task: maps its calls to updates in stream time.
    final class TaskObserver: NSObject, SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
        // @unchecked: delegate calls arrive one at a time on the recognizer's serial queue.
        private let record: TaskRecord
        private weak var backend: LegacyPipelineBackend?
        private var processedSeconds = 0.0
        private var final: RecognizedSpan?

        init(record: TaskRecord, backend: LegacyPipelineBackend) {
            self.record = record
            self.backend = backend
        }

        func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) {
            backend?.deliver(.speechStarted(atSeconds: record.startSeconds + processedSeconds), of: record)
        }

        func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didProcessAudioDuration duration: TimeInterval) {
            processedSeconds = max(processedSeconds, duration)
            backend?.deliver(.progress(processedSeconds: record.startSeconds + processedSeconds), of: record)
        }

        func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                   didHypothesizeTranscription transcription: SFTranscription) {
            let span = LegacyPipelineBackend.span(of: transcription, alternatives: [], startSeconds: record.startSeconds,
                                                  endSeconds: record.startSeconds + processedSeconds)
            backend?.deliver(.volatile(span), of: record)
        }

        func speechRecognitionTask(_ task: SFSpeechRecognitionTask,
                                   didFinishRecognition recognitionResult: SFSpeechRecognitionResult) {
            final = LegacyPipelineBackend.span(
                of: recognitionResult.bestTranscription, alternatives: recognitionResult.transcriptions,
                startSeconds: record.startSeconds, endSeconds: record.endSeconds ?? record.startSeconds + processedSeconds)
        }

        func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
            let error = successfully ? nil : task.error
                ?? MigrationError(.recognitionFailed, "The legacy task underneath failed without an error.")
            backend?.ended(record, final: successfully ? final : nil, error: error)
        }
    }

    /// A legacy transcription in the Bridge's terms, placed at `startSeconds`
    /// of stream time. Segments without timing (partial results) give no
    /// timed words.
    static func span(of transcription: SFTranscription, alternatives: [SFTranscription],
                     startSeconds: Double, endSeconds: Double) -> RecognizedSpan {
        let timed = transcription.segments.contains { $0.duration > 0 }
        let words = timed ? transcription.segments.enumerated().map { index, segment in
            RecognizedWord(text: (index == 0 ? "" : " ") + segment.substring,
                           startSeconds: startSeconds + segment.timestamp,
                           endSeconds: startSeconds + segment.timestamp + segment.duration,
                           confidence: Double(segment.confidence))
        } : []
        return RecognizedSpan(startSeconds: startSeconds, endSeconds: max(endSeconds, words.last?.endSeconds ?? 0),
                              text: transcription.formattedString, words: words,
                              alternatives: alternatives.map { (text: $0.formattedString, score: unknownScore) })
    }
}

/// What each legacy request of a modern transcriber's legacy pipeline is
/// configured with: the transcriber's own options (punctuation, volatile
/// results, contextual strings from the analysis context) and the legacy
/// settings of an optional template request.
struct LegacyRequestSettings: Sendable {
    var contextualStrings: [String]
    var addsPunctuation: Bool
    var reportsPartialResults: Bool
    var template: Template

    /// The legacy-only settings of a template request, read once: task
    /// hint, interaction identifier, custom language model, on-device flag
    /// and contextual strings.
    struct Template: Sendable {
        var contextualStrings: [String] = []
        var taskHint: SFSpeechRecognitionTaskHint = .unspecified
        var interactionIdentifier: String?
        // The modern API has no one-minute limit: on-device unless the
        // template asks for server-style tasks (which then roll over).
        var requiresOnDeviceRecognition = true
        var languageModel: (url: URL, vocabulary: URL?, weight: Double)?

        init() {}

        init(_ request: SFSpeechRecognitionRequest) {
            contextualStrings = request.contextualStrings
            taskHint = request.taskHint
            interactionIdentifier = request.interactionIdentifier
            requiresOnDeviceRecognition = request.requiresOnDeviceRecognition
            languageModel = request.customizedLanguageModel.map {
                ($0.languageModel, $0.vocabulary, $0.weight?.doubleValue ?? 0.5)
            }
        }
    }

    /// Settings from the transcriber's configuration and a template's.
    init(configuration: RecognitionConfiguration, template: Template) {
        var strings = configuration.phrases
        for string in template.contextualStrings where !strings.contains(string) { strings.append(string) }
        contextualStrings = strings
        addsPunctuation = configuration.addsPunctuation
        reportsPartialResults = configuration.reportsVolatileResults
        var template = template
        if template.languageModel == nil, let model = configuration.customLanguageModel {
            template.languageModel = (model.languageModel, model.vocabulary, model.weight)
        }
        self.template = template
    }

    /// Configures a legacy request with these settings.
    func apply(to request: SFSpeechRecognitionRequest) {
        request.contextualStrings = contextualStrings
        request.addsPunctuation = addsPunctuation
        request.shouldReportPartialResults = reportsPartialResults
        request.taskHint = template.taskHint
        request.interactionIdentifier = template.interactionIdentifier
        request.requiresOnDeviceRecognition = template.requiresOnDeviceRecognition
        request.rollsOverAtRecognitionLimit = !template.requiresOnDeviceRecognition
        if let languageModel = template.languageModel {
            request.customizedLanguageModel = SFSpeechLanguageModel.Configuration(
                languageModel: languageModel.url, vocabulary: languageModel.vocabulary,
                weight: NSNumber(value: languageModel.weight))
        }
    }
}
