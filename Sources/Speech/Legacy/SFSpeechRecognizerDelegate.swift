import Foundation

/// Receives changes of a speech recognizer's availability.
///
/// Set it as `SFSpeechRecognizer.delegate` (held weakly).
/// - Note: On Linux Objective-C optional requirements do not exist: the method
///   is a normal requirement with an empty default implementation, so
///   conforming types implement only what they need (and
///   `delegate?.method?(…)` call syntax does not compile). Availability is the
///   presence of an installed model for the recognizer's locale, checked
///   every two seconds while a delegate is set; the call arrives on the
///   recognizer's `queue`.
@available(iOS 10.0, macOS 10.15, *)
public protocol SFSpeechRecognizerDelegate: NSObjectProtocol {
    /// Tells the delegate that the recognizer's availability changed.
    func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool)
}

@available(iOS 10.0, macOS 10.15, *)
extension SFSpeechRecognizerDelegate {
    /// Does nothing (the requirement is optional on Apple platforms).
    public func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool) {}
}
