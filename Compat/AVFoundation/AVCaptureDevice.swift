// The macOS microphone-permission path: AVCaptureDevice's authorization
// calls, which macOS speech samples use instead of AVAudioSession
// (API.md §2.11, optional shims).

/// Whether the app may capture a media type.
public enum AVAuthorizationStatus: Int, @unchecked Sendable {
    /// Not asked yet.
    case notDetermined = 0
    /// Restricted by policy.
    case restricted = 1
    /// Refused.
    case denied = 2
    /// Allowed.
    case authorized = 3
}

/// A capture device; on Linux only its authorization calls are provided.
/// - Note: Audio authorization shares `AVAudioApplication`'s answer: granted
///   when the ALSA capture device opens. Video is always `.denied`.
open class AVCaptureDevice: NSObject {
    /// The authorization status for a media type.
    open class func authorizationStatus(for mediaType: AVMediaType) -> AVAuthorizationStatus {
        guard mediaType == .audio else { return .denied }
        switch RecordPermissionStore.shared.state {
        case .undetermined: return .notDetermined
        case .denied: return .denied
        case .granted: return .authorized
        }
    }

    /// Asks for access; the handler runs on a background queue.
    open class func requestAccess(for mediaType: AVMediaType, completionHandler handler: @escaping @Sendable (Bool) -> Void) {
        guard mediaType == .audio else { DispatchQueue.global().async { handler(false) }; return }
        RecordPermissionStore.shared.request(completion: handler)
    }

    /// Asks for access.
    open class func requestAccess(for mediaType: AVMediaType) async -> Bool {
        await withCheckedContinuation { continuation in
            requestAccess(for: mediaType) { continuation.resume(returning: $0) }
        }
    }
}
