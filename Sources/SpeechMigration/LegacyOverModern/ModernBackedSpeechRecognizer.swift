import Foundation
import Speech

/// An object with the shape of `SFSpeechRecognizer` that recognizes with the
/// modern pipeline (`SpeechAnalyzer` + `SpeechTranscriber`) underneath, so
/// ported code keeps its handler or delegate structure while it moves.
///
/// ```swift
/// let recognizer = ModernBackedSpeechRecognizer(locale: Locale(identifier: "en-US"))!
/// let request = ModernBackedURLRecognitionRequest(url: fileURL)
/// recognizer.recognitionTask(with: request) { result, error in
///     if let result, result.isFinal { print(result.bestTranscription.formattedString) }
/// }
/// ```
/// Results are real `SFSpeechRecognitionResult`s; tasks and delegates use
/// the adapter's types (`ModernBackedRecognitionTask`,
/// `ModernBackedRecognitionTaskDelegate`), whose members match the legacy ones.
///
/// Mapped: `locale` → `SpeechTranscriber(locale:)`; `isAvailable` →
/// `SpeechTranscriber.isAvailable` and installed locales; `queue` as in the
/// legacy face. Unmapped: `delegate` (`SFSpeechRecognizerDelegate`
/// availability changes: the modern API has no such notification),
/// `supportsOnDeviceRecognition` (always true), authorization (the modern
/// API needs none: it uses asset installation instead).
public final class ModernBackedSpeechRecognizer: @unchecked Sendable {
    // @unchecked: like SFSpeechRecognizer, configured from one thread.

    /// The recognizer's locale (a locale `SpeechTranscriber` supports).
    public let locale: Locale
    /// The queue for handlers and delegate calls; default `OperationQueue.main`.
    public var queue: OperationQueue = .main
    /// Kept for source compatibility; the modern pipeline has no task hints.
    public var defaultTaskHint: SFSpeechRecognitionTaskHint = .unspecified
    /// Always true: the modern pipeline runs on the device.
    public var supportsOnDeviceRecognition: Bool { true }

    /// Creates a recognizer for `locale`, or nil when the locale names no
    /// language.
    /// - Note: `SpeechTranscriber`'s locale lookups are asynchronous, so the
    ///   locale is matched to a supported one when a task starts; a task for
    ///   an unsupported locale fails with
    ///   `SFSpeechError.Code.cannotAllocateUnsupportedLocale`.
    public init?(locale: Locale) {
        guard locale.language.languageCode != nil else { return nil }
        self.locale = locale
    }

    /// Whether recognition can run now: the transcriber is available and a
    /// model for the locale's language is installed.
    public var isAvailable: Bool {
        get async {
            await SpeechTranscriber.installedLocales.contains {
                $0.language.languageCode == locale.language.languageCode
            } && SpeechTranscriber.isAvailable
        }
    }

    /// Starts recognizing `request`; the handler gets partial results (if
    /// requested), then one final result or one error, on `queue`.
    @discardableResult
    public func recognitionTask(with request: ModernBackedRecognitionRequest,
                                resultHandler: @escaping (SFSpeechRecognitionResult?, (any Error)?) -> Void)
        -> ModernBackedRecognitionTask {
        start(request, receiver: .handler(resultHandler))
    }

    /// Starts recognizing `request`, reporting to `delegate` (held weakly) on `queue`.
    @discardableResult
    public func recognitionTask(with request: ModernBackedRecognitionRequest,
                                delegate: any ModernBackedRecognitionTaskDelegate) -> ModernBackedRecognitionTask {
        start(request, receiver: .delegate(.init(delegate)))
    }

    /// Starts recognizing the file of a legacy URL request, with its settings.
    @discardableResult
    public func recognitionTask(with request: SFSpeechURLRecognitionRequest,
                                resultHandler: @escaping (SFSpeechRecognitionResult?, (any Error)?) -> Void)
        -> ModernBackedRecognitionTask {
        start(ModernBackedURLRecognitionRequest(request), receiver: .handler(resultHandler))
    }

    /// Starts recognizing the file of a legacy URL request, reporting to `delegate`.
    @discardableResult
    public func recognitionTask(with request: SFSpeechURLRecognitionRequest,
                                delegate: any ModernBackedRecognitionTaskDelegate) -> ModernBackedRecognitionTask {
        start(ModernBackedURLRecognitionRequest(request), receiver: .delegate(.init(delegate)))
    }

    private func start(_ request: ModernBackedRecognitionRequest,
                       receiver: ModernBackedRecognitionTask.Receiver) -> ModernBackedRecognitionTask {
        if request.taskHint == .unspecified { request.taskHint = defaultTaskHint }
        let task = ModernBackedRecognitionTask(request: request, receiver: receiver, queue: queue)
        task.start(locale: locale)
        return task
    }
}
