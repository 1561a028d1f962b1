import Foundation

/// The abstract base of recognition requests: what to recognize and how.
///
/// Use `SFSpeechAudioBufferRecognitionRequest` for live or streamed audio and
/// `SFSpeechURLRecognitionRequest` for a recorded file. A request serves one
/// task.
/// - Note: On Linux every request is recognized on this machine by the Whisper
///   engine. Unless `requiresOnDeviceRecognition` is true, a task behaves
///   like Apple's server-based recognition and stops after one minute of
///   audio (see `maximumRecognitionDuration` and
///   `rollsOverAtRecognitionLimit`, Linux extensions).
@available(iOS 10.0, macOS 10.15, *)
open class SFSpeechRecognitionRequest: NSObject, @unchecked Sendable {
    // @unchecked: like Apple's request objects, properties are set by the app
    // before the task starts; the audio path is internally synchronized.

    /// The type of recognition being performed; default `.unspecified`
    /// (the recognizer's `defaultTaskHint` then applies).
    /// - Note: Accepted and kept; it does not change the engine's decoding.
    open var taskHint: SFSpeechRecognitionTaskHint = .unspecified

    /// Whether partial (intermediate) results are reported; default `true`.
    open var shouldReportPartialResults: Bool = true

    /// Phrases that should be recognized even if they are outside the
    /// system vocabulary: keep them short, at most 100.
    /// - Note: On Linux the first 100 phrases bias the decoder toward their
    ///   token sequences (prompt plus logit boost); the effect is real but,
    ///   as on Apple platforms, best-effort.
    open var contextualStrings: [String] = []

    /// Identifies the part of the app making the request.
    /// - Note: Kept, unused (deprecated on Apple platforms).
    @available(iOS, introduced: 10.0, deprecated: 15.0, message: "Not used anymore")
    @available(macOS, introduced: 10.15, deprecated: 12.0, message: "Not used anymore")
    open var interactionIdentifier: String? {
        get { storedInteractionIdentifier }
        set { storedInteractionIdentifier = newValue }
    }

    /// Whether audio must stay on the device; default `false`.
    /// - Note: On Linux all recognition is local. `true` lifts the one-minute
    ///   limit and omits voice analytics, as Apple's on-device mode does.
    @available(iOS 13.0, macOS 10.15, *)
    open var requiresOnDeviceRecognition: Bool = false

    /// Whether punctuation is added to the transcription; default `false`.
    /// - Note: With `false` the engine's punctuation is removed from
    ///   `formattedString` and the segments.
    @available(iOS 16.0, macOS 13.0, *)
    open var addsPunctuation: Bool = false

    /// A custom language model prepared with
    /// `SFSpeechLanguageModel.prepareCustomLanguageModel(for:configuration:completion:)`.
    /// - Note: Its phrases and vocabulary bias recognition like contextual strings.
    @available(iOS 17.0, macOS 14.0, *)
    open var customizedLanguageModel: SFSpeechLanguageModel.Configuration? {
        get { storedLanguageModel }
        set { storedLanguageModel = newValue?.copy() as? SFSpeechLanguageModel.Configuration }
    }

    private var storedInteractionIdentifier: String?
    private var storedLanguageModel: SFSpeechLanguageModel.Configuration?

    /// Seconds of audio after which a server-style task stops (Linux extension).
    var storedMaximumRecognitionDuration: TimeInterval = 60
    /// Whether a server-style task keeps going past the limit (Linux extension).
    var storedRollsOverAtLimit = false

    /// The audio path from this request to the task that recognizes it.
    let feed = AudioFeed()

    /// Creates a request with default settings (for subclasses).
    public override init() {
        super.init()
    }

    /// Starts producing audio into `feed` once a task has attached.
    /// Buffer requests produce audio as the app appends it; URL requests
    /// override this to read their file.
    func startProducingAudio(on scheduler: BridgeScheduler) {}

    /// Stops taking audio (the task's `finish()`): what arrived is finalized.
    func stopProducingAudio() {
        feed.end()
    }
}
