import Foundation
import Speech

extension SpeechTranscriber {
    /// Recognizes with legacy `SFSpeechRecognitionTask`s underneath, from the
    /// analysis that next starts with this transcriber.
    ///
    /// Everything the code touches stays modern: `SpeechAnalyzer` and its
    /// input, finalization and finishing calls, this module and its
    /// `results`, volatile and final `AttributedString`s with time ranges
    /// and confidence. Only the recognition underneath is the legacy
    /// face's, so new async code can run on legacy-configured requests
    /// (task hints, custom language models, contextual strings) and be
    /// compared with the modern pipeline on the same code.
    ///
    /// ```swift
    /// let transcriber = SpeechTranscriber(locale: locale, preset: .timeIndexedProgressiveTranscription)
    /// let template = SFSpeechURLRecognitionRequest(url: fileURL)
    /// template.taskHint = .dictation
    /// transcriber.useLegacyPipeline(configuredLike: template)
    /// let analyzer = SpeechAnalyzer(modules: [transcriber])
    /// ```
    ///
    /// - Parameter template: a legacy request whose task hint, interaction
    ///   identifier, custom language model, on-device flag and contextual
    ///   strings (added to the analysis context's) each legacy task takes.
    ///   Its values are read now. Without one, tasks are on-device (no
    ///   one-minute limit). Punctuation and volatile results follow this
    ///   transcriber's options.
    /// - Note: The legacy pipeline needs speech-recognition authorization
    ///   (`SFSpeechRecognizer.requestAuthorization`); without it the
    ///   analysis fails with the legacy task's error. Legacy tasks cannot
    ///   finalize part of their audio: `finalize(through:)` finalizes all
    ///   audio given so far, and later audio starts a task without the
    ///   earlier context.
    public func useLegacyPipeline(configuredLike template: SFSpeechRecognitionRequest? = nil) {
        pipeline.use(LegacyPipelineBackend.factory(template: template))
    }
}

extension DictationTranscriber {
    /// Recognizes with legacy `SFSpeechRecognitionTask`s underneath, from the
    /// analysis that next starts with this transcriber; see
    /// `SpeechTranscriber.useLegacyPipeline(configuredLike:)`.
    public func useLegacyPipeline(configuredLike template: SFSpeechRecognitionRequest? = nil) {
        pipeline.use(LegacyPipelineBackend.factory(template: template))
    }
}

extension LegacyPipelineBackend {
    /// Backends taking the template's legacy settings as they are now.
    static func factory(template request: SFSpeechRecognitionRequest?) -> RecognitionSessionFactory {
        let template = request.map(LegacyRequestSettings.Template.init) ?? LegacyRequestSettings.Template()
        return RecognitionSessionFactory { locale, configuration in
            try LegacyPipelineBackend(locale: locale,
                                      settings: LegacyRequestSettings(configuration: configuration, template: template))
        }
    }
}
