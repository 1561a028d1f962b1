/// The Whisper models SpeechCompat can install and run.
///
/// The raw value is the model's folder name under `AssetStore.root` and the
/// name the `speech assets` commands take.
public enum ModelName: String, CaseIterable, Sendable, Codable {
    /// Whisper base: multilingual (99 languages), 74 M parameters, 145 MB.
    case whisperBase = "whisper-base"
    /// Whisper tiny.en: English only, 39 M parameters, 76 MB.
    case whisperTinyEn = "whisper-tiny.en"

    /// Whether the model knows all 99 languages (`false`: English only).
    /// It also fixes the special-token ids (`SpecialTokens(isMultilingual:)`).
    public var isMultilingual: Bool {
        switch self {
        case .whisperBase: true
        case .whisperTinyEn: false
        }
    }

    /// The model to use when none is named: the multilingual one.
    public static let `default`: ModelName = .whisperBase

    /// The command that installs this model, as error messages quote it.
    public var installCommand: String { "speech assets install \(rawValue)" }
}
