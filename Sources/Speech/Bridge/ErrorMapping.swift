import Foundation
internal import SpeechEngine

/// The one place where engine errors become Apple-shaped errors.
///
/// The legacy face reports the `NSError`s apps actually receive from
/// `SFSpeechRecognitionTask` (`kAFAssistantErrorDomain`, `kLSRErrorDomain`,
/// API.md §1.2.3), whose domains Apple never exported as constants; the modern
/// face throws `SFSpeechError` (§1.2.1, §1.2.2) or `CancellationError`.
enum ErrorMapping {
    /// The Siri/assistant domain of the legacy recognizer's runtime errors.
    static let assistantDomain = "kAFAssistantErrorDomain"
    /// The local speech recognition domain of the legacy recognizer.
    static let localSpeechDomain = "kLSRErrorDomain"

    /// The legacy runtime errors, as `(domain, code, description)`.
    enum Legacy {
        /// Assets are not installed (kLSRErrorDomain 102).
        case assetsNotInstalled
        /// Siri or Dictation is disabled (kLSRErrorDomain 201).
        case dictationDisabled
        /// Failed to initialize recognizer (kLSRErrorDomain 300).
        case initializationFailed
        /// Request was canceled (kLSRErrorDomain 301).
        case cancelled
        /// Failure occurred during speech recognition (kAFAssistantErrorDomain 203).
        case recognitionFailed
        /// Trying to start recognition while an earlier instance is active (kAFAssistantErrorDomain 1100).
        case alreadyActive
        /// Failed to recognize any speech (kAFAssistantErrorDomain 1110).
        case noSpeech
        /// Request is not authorized (kAFAssistantErrorDomain 1700).
        case notAuthorized

        var domain: String {
            switch self {
            case .assetsNotInstalled, .dictationDisabled, .initializationFailed, .cancelled: localSpeechDomain
            case .recognitionFailed, .alreadyActive, .noSpeech, .notAuthorized: assistantDomain
            }
        }

        var code: Int {
            switch self {
            case .assetsNotInstalled: 102
            case .dictationDisabled: 201
            case .initializationFailed: 300
            case .cancelled: 301
            case .recognitionFailed: 203
            case .alreadyActive: 1100
            case .noSpeech: 1110
            case .notAuthorized: 1700
            }
        }

        /// Apple's description of the code (the `error.md` table).
        var message: String {
            switch self {
            case .assetsNotInstalled: "Assets are not installed."
            case .dictationDisabled: "Siri or Dictation is disabled."
            case .initializationFailed: "Failed to initialize recognizer."
            case .cancelled: "Recognition request was canceled."
            case .recognitionFailed: "Failure occurred during speech recognition."
            case .alreadyActive: "Trying to start recognition while an earlier instance is still active."
            case .noSpeech: "No speech detected"
            case .notAuthorized: "Request is not authorized."
            }
        }

        /// The `NSError` apps switch on, with an optional reason and cause.
        func error(reason: String? = nil, underlying: (any Error)? = nil) -> NSError {
            var info: [String: Any] = [NSLocalizedDescriptionKey: message]
            if let reason { info[NSLocalizedFailureReasonErrorKey] = reason }
            if let underlying { info[NSUnderlyingErrorKey] = underlying }
            return NSError(domain: domain, code: code, userInfo: info)
        }
    }

    /// The legacy error for an engine failure.
    ///
    /// Unreadable or undecodable audio is `SFSpeechError.audioReadFailed`
    /// (SFSpeechErrorDomain 2), the one public code about audio sources.
    static func legacyError(for error: EngineError) -> any Error {
        switch error.code {
        case .cancelled:
            return Legacy.cancelled.error(underlying: error)
        case .modelNotFound, .assetInstallFailed, .unsupportedLanguage, .insufficientStorage:
            return Legacy.assetsNotInstalled.error(reason: error.message, underlying: error)
        case .invalidModelFile:
            return Legacy.initializationFailed.error(reason: error.message, underlying: error)
        case .unreadableAudio, .unsupportedAudioFormat, .audioDeviceUnavailable:
            return SFSpeechError(.audioReadFailed, userInfo: info(error))
        default:
            return Legacy.recognitionFailed.error(reason: error.message, underlying: error)
        }
    }

    /// The modern-face error for an engine failure: `CancellationError` for
    /// cancellation, otherwise an `SFSpeechError` carrying the engine's message.
    static func speechError(for error: EngineError) -> any Error {
        let code: SFSpeechError.Code
        switch error.code {
        case .cancelled: return CancellationError()
        case .modelNotFound, .assetInstallFailed, .invalidModelFile: code = .noModel
        case .unsupportedLanguage: code = .cannotAllocateUnsupportedLocale
        case .unsupportedAudioFormat: code = .unexpectedAudioFormat
        case .unreadableAudio, .audioDeviceUnavailable: code = .audioReadFailed
        case .invalidArgument: code = .missingParameter
        // A full disk during an asset install: not enough on-device resources.
        case .insufficientStorage: code = .insufficientResources
        default: code = .internalServiceError
        }
        return SFSpeechError(code, userInfo: info(error))
    }

    /// Any error from below the faces as a modern-face error: engine errors
    /// mapped, Speech errors and cancellation as they are.
    static func speechError(forAny error: any Error) -> any Error {
        if let engineError = error as? EngineError { return speechError(for: engineError) }
        if let timeout = timedOut(error) {
            return SFSpeechError(.timeout, userInfo: [NSLocalizedDescriptionKey: "The operation timed out.",
                                                      NSLocalizedFailureReasonErrorKey: timeout.message,
                                                      NSUnderlyingErrorKey: timeout])
        }
        if error is SFSpeechError || error is CancellationError { return error }
        var info: [String: Any] = [NSLocalizedDescriptionKey: error.localizedDescription, NSUnderlyingErrorKey: error]
        // A legacy error from the adapter carries the engine's account of the failure as its reason.
        if let reason = (error as NSError).localizedFailureReason { info[NSLocalizedFailureReasonErrorKey] = reason }
        return SFSpeechError(.internalServiceError, userInfo: info)
    }

    /// Any error from below the faces (engine or file reading) as a legacy error.
    static func legacyError(forAny error: any Error) -> any Error {
        if let engineError = error as? EngineError { return legacyError(for: engineError) }
        // Apple's legacy face reports a timeout as 203 ("Timeout waiting for command …").
        if let timeout = timedOut(error) { return Legacy.recognitionFailed.error(reason: timeout.message, underlying: timeout) }
        if error is SFSpeechError { return error }
        let nsError = error as NSError
        if nsError.domain == assistantDomain || nsError.domain == localSpeechDomain { return error }
        return Legacy.recognitionFailed.error(reason: error.localizedDescription, underlying: error)
    }

    /// The service error, if `error` is the recognition service not answering in time.
    private static func timedOut(_ error: any Error) -> ServiceBackendError? {
        guard let service = error as? ServiceBackendError, service.code == .timedOut else { return nil }
        return service
    }

    /// The engine error for a capture device that went away mid-stream
    /// (`AVAudioEngine`'s input over ALSA): each face maps it to its own
    /// (legacy `SFSpeechError.audioReadFailed`, modern the same code).
    static func captureDeviceVanished(_ deviceError: NSError) -> EngineError {
        EngineError(.audioDeviceUnavailable,
                    "The audio capture device went away mid-stream (\(deviceError.localizedDescription)) "
                    + "The audio captured before was recognized and its text kept. Reconnect the device "
                    + "(or choose another with SPEECHCOMPAT_ALSA_DEVICE), restart the AVAudioEngine and start "
                    + "a new recognition.",
                    underlying: deviceError)
    }

    private static func info(_ error: EngineError) -> [String: Any] {
        [NSLocalizedFailureReasonErrorKey: error.message, NSUnderlyingErrorKey: error]
    }
}
