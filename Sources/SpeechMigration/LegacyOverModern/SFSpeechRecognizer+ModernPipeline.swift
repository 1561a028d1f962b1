import Foundation
import Speech

extension SFSpeechRecognizer {
    /// Runs this recognizer's tasks on the modern pipeline — `SpeechAnalyzer`
    /// with a `DictationTranscriber` — from the next task on.
    ///
    /// Everything the code touches stays legacy: the recognizer, its
    /// `queue`, `SFSpeechRecognitionTask` with its states, `cancel()` and
    /// `finish()`, result handlers and `SFSpeechRecognitionTaskDelegate`,
    /// buffer and URL requests, the one-minute limit of server-style
    /// requests, and real `SFSpeechRecognitionResult`s. Only the
    /// recognition underneath is the modern face's, so a port can move its
    /// recognition first and its call sites later, and compare the two on
    /// the same code.
    ///
    /// ```swift
    /// let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US"))!
    /// recognizer.useModernPipeline()
    /// recognizer.recognitionTask(with: SFSpeechURLRecognitionRequest(url: fileURL), delegate: self)
    /// ```
    ///
    /// Mapped: contextual strings → `AnalysisContext`, `addsPunctuation` →
    /// `.punctuation`, partial results → `.volatileResults`, the custom
    /// language model → `.customizedLanguage(modelConfiguration:)`, a URL
    /// request's file → `analyzeSequence(from:)` of an `AVAudioFile`, the
    /// rolling limit → `finalize(through:)`. Not mapped: `taskHint` (no
    /// modern counterpart); `speechRecognitionDidDetectSpeech` comes with
    /// the first result that has text, as the modern API reports no speech
    /// start without a `SpeechDetector`. Model assets are the modern face's:
    /// install them with `AssetInventory` or `speech assets install`.
    public func useModernPipeline() {
        sessionFactory = RecognitionSessionFactory { locale, configuration in
            ModernPipelineBackend(locale: locale, configuration: configuration)
        }
    }
}
