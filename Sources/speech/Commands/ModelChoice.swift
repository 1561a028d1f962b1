import Foundation
import SpeechEngine

/// The model a command runs: an installed model by name, or a model folder
/// by path (a CTranslate2 Whisper folder with model.bin, config.json and
/// tokenizer.json).
enum ModelChoice: Sendable, Hashable, CustomStringConvertible {
    case named(ModelName)
    case directory(URL)

    /// The `--model` option every recognising command shares.
    static let option = OptionSpec.value(
        "model", "name|path",
        help: "Model: \(ModelName.allCases.map(\.rawValue).joined(separator: ", ")), or a model folder\n(default: \(ModelName.default.rawValue)).")

    /// The `--compute-type` option of the commands that load a model for speed or accuracy runs.
    static let computeTypeOption = computeTypeOption(streams: false)

    /// The option, for a command whose `--stream` decodes live audio in ``ComputeType/live``.
    static func computeTypeOption(streams: Bool) -> OptionSpec {
        let live = streams ? "; with --stream, \(ComputeType.live.rawValue) as for live audio" : ""
        return OptionSpec.value(
            "compute-type", "type",
            help: "Weights and matrix kernels: \(ComputeType.allCases.map(\.rawValue).joined(separator: " or ")) (default: \(ComputeType.environmentVariable)\nor \(ComputeType.default.rawValue)\(live)).")
    }

    /// Reads `--compute-type`, else `SPEECHCOMPAT_COMPUTE_TYPE`, else `unset`
    /// (``ComputeType/live`` for the commands that stream, as the faces do).
    /// - Throws: ``UsageError`` if either names no compute type.
    static func computeType(arguments: ParsedArguments,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            unset: ComputeType = .default) throws(UsageError) -> ComputeType {
        if let chosen = try arguments.choice("compute-type", from: ComputeType.allCases.map(\.rawValue)) {
            return ComputeType(rawValue: chosen) ?? .default
        }
        do {
            return try ComputeType.configured(environment: environment, unset: unset)
        } catch {
            throw UsageError("\((error as? EngineError)?.message ?? "\(error)")")
        }
    }

    /// Reads `--model`.
    /// - Throws: ``UsageError`` if it is neither a model name nor a folder.
    init(arguments: ParsedArguments) throws(UsageError) {
        guard let text = arguments.value("model") else {
            self = .named(.default)
            return
        }
        if let name = ModelName(rawValue: text) {
            self = .named(name)
            return
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: text, isDirectory: &isDirectory), isDirectory.boolValue {
            self = .directory(URL(fileURLWithPath: text))
            return
        }
        throw UsageError("Unknown model '\(text)': use one of \(ModelName.allCases.map(\.rawValue).joined(separator: ", ")) or a model folder.")
    }

    /// Whether the model knows only English (decided by name; a folder is
    /// checked when loaded).
    var isEnglishOnly: Bool {
        if case .named(let name) = self { return !name.isMultilingual }
        return false
    }

    var description: String {
        switch self {
        case .named(let name): return name.rawValue
        case .directory(let url): return url.path
        }
    }

    /// Loads the model and returns a transcriber over it.
    /// - Throws: `EngineError(.modelNotFound)` or `.invalidModelFile`, whose
    ///   messages name the file and the install command.
    func loadTranscriber(computeType: ComputeType = .default) throws -> Transcriber {
        switch self {
        case .named(let name): return Transcriber(model: try WhisperModel(name, computeType: computeType))
        case .directory(let url): return Transcriber(model: try WhisperModel(directory: url, computeType: computeType))
        }
    }
}
