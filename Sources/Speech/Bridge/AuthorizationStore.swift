import Foundation

/// The emulated speech-recognition permission of the legacy face.
///
/// Linux has no privacy prompt. The answer is kept per user in
/// `$XDG_CONFIG_HOME/speechcompat/speech-authorization` (else
/// `~/.config/…`); the environment variable
/// `SPEECHCOMPAT_SPEECH_AUTHORIZATION` (`authorized`, `denied`, `restricted`,
/// `notDetermined`) overrides it without being persisted, so tests and CI can
/// exercise denial flows. The first request while `.notDetermined` answers
/// `.authorized` — the emulated user says yes — and remembers it.
struct AuthorizationStore: Sendable {
    /// The environment variable that forces an answer.
    static let environmentKey = "SPEECHCOMPAT_SPEECH_AUTHORIZATION"

    /// Where the answer is persisted.
    let fileURL: URL
    /// The environment consulted for the override.
    let environment: [String: String]

    /// The store for this process's user and environment.
    static var standard: AuthorizationStore {
        let environment = ProcessInfo.processInfo.environment
        let configHome: URL
        if let path = environment["XDG_CONFIG_HOME"], path.hasPrefix("/") {
            configHome = URL(fileURLWithPath: path)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            configHome = home.appendingPathComponent(".config")
        }
        return AuthorizationStore(fileURL: configHome.appendingPathComponent("speechcompat/speech-authorization"),
                                  environment: environment)
    }

    /// The current answer: the override, else the persisted one, else `.notDetermined`.
    func status() -> SFSpeechRecognizerAuthorizationStatus {
        if let forced = override { return forced }
        guard let text = try? String(contentsOf: fileURL, encoding: .utf8),
              let status = SFSpeechRecognizerAuthorizationStatus(name: text) else { return .notDetermined }
        return status
    }

    /// Asks for permission: `.notDetermined` becomes `.authorized` and is
    /// persisted; any other answer is returned as it is.
    func request() -> SFSpeechRecognizerAuthorizationStatus {
        let current = status()
        guard current == .notDetermined, override == nil else { return current }
        persist(.authorized)
        return .authorized
    }

    /// The answer a task starting now is checked against (API.md §4.1.1).
    ///
    /// A forced or remembered answer is used as it is, so a forced
    /// `notDetermined` fails the task like `denied`: a task started before the
    /// user answered is not authorized (1700). With no answer at all (no
    /// override, nothing persisted) the first task stands for the first
    /// request — the emulated user is asked and says yes (§4.1.1-4's project
    /// decision) — and the answer is persisted, so `authorizationStatus()`
    /// reports `.authorized` afterwards instead of a status the task ignored.
    func statusForNewTask() -> SFSpeechRecognizerAuthorizationStatus {
        if let forced = override { return forced }
        return request()
    }

    /// Why a task with `status` is refused and how to fix it; `nil` when the
    /// task may run.
    static func refusalReason(for status: SFSpeechRecognizerAuthorizationStatus) -> String? {
        switch status {
        case .authorized:
            return nil
        case .notDetermined:
            return "Speech recognition permission is notDetermined: the task was started before the user answered. "
                + "Call SFSpeechRecognizer.requestAuthorization(_:) and start tasks once it answers .authorized "
                + "(\(environmentKey) forces the answer on Linux)."
        case .denied, .restricted:
            return "Speech recognition permission is \(status). Check SFSpeechRecognizer.authorizationStatus() "
                + "before starting tasks; on Linux the answer is forced by \(environmentKey) or remembered in "
                + "$XDG_CONFIG_HOME/speechcompat/speech-authorization (delete it to be asked again)."
        }
    }

    /// Persists an answer (best effort: an unwritable config folder leaves
    /// the answer in effect for this call only).
    func persist(_ status: SFSpeechRecognizerAuthorizationStatus) {
        let folder = fileURL.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? Data((status.description + "\n").utf8).write(to: fileURL, options: .atomic)
    }

    private var override: SFSpeechRecognizerAuthorizationStatus? {
        environment[Self.environmentKey].flatMap { SFSpeechRecognizerAuthorizationStatus(name: $0) }
    }
}
