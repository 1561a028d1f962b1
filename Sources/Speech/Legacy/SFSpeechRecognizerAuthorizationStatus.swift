import Foundation

/// The app's authorization to perform speech recognition.
///
/// Returned by `SFSpeechRecognizer.authorizationStatus()` and passed to the
/// `requestAuthorization(_:)` handler.
/// - Note: On Linux there is no privacy prompt. The answer is emulated: it is
///   persisted per user (`$XDG_CONFIG_HOME/speechcompat/speech-authorization`)
///   and can be forced with the environment variable
///   `SPEECHCOMPAT_SPEECH_AUTHORIZATION` (`authorized`, `denied`, `restricted`,
///   `notDetermined`), so denial flows can be exercised.
@available(iOS 10.0, macOS 10.15, *)
public enum SFSpeechRecognizerAuthorizationStatus: Int, @unchecked Sendable {
    /// The user has not yet answered; `requestAuthorization(_:)` would prompt.
    case notDetermined = 0
    /// The user denied speech recognition to the app.
    case denied = 1
    /// The device prevents speech recognition (policy, parental controls).
    case restricted = 2
    /// The user granted speech recognition to the app.
    case authorized = 3
}

extension SFSpeechRecognizerAuthorizationStatus: CustomStringConvertible {
    /// The case name, e.g. `authorized`.
    public var description: String {
        switch self {
        case .notDetermined: "notDetermined"
        case .denied: "denied"
        case .restricted: "restricted"
        case .authorized: "authorized"
        }
    }

    /// Parses a case name (case-insensitive), as used in the environment
    /// variable and the persisted file.
    init?(name: String) {
        let lowered = name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard let status = Self.allStatuses.first(where: { $0.description.lowercased() == lowered }) else {
            return nil
        }
        self = status
    }

    private static let allStatuses: [SFSpeechRecognizerAuthorizationStatus] =
        [.notDetermined, .denied, .restricted, .authorized]
}
