import Foundation

/// A record, kept in a model folder as `.verified`, that its files matched
/// their pinned SHA-256 when they had a given size, modification time and
/// inode.
///
/// Hashing a model costs about 0.4 s per 100 MB, too much for every load;
/// checking the stamp costs four `stat` calls. A file rewritten after the
/// check (a partial copy, a tool writing into it, a restore from backup)
/// has a new modification time or inode, so the stamp no longer matches and
/// the next load hashes it again. Silent bit rot that keeps the metadata is
/// not caught here: the loader's own checks (shapes, sizes, finite weights)
/// still turn it into an error rather than a crash.
struct VerificationStamp: Equatable {
    /// The stamp's file name inside the model folder.
    static let fileName = ".verified"

    /// One line per file: `name size mtime-ns inode`.
    var lines: [String]

    /// The stamp the files in `folder` would have now, or `nil` when one is missing.
    init?(folder: URL, files: [ModelAssetManifest.File]) {
        var lines: [String] = []
        for file in files {
            var info = stat()
            guard stat(folder.appendingPathComponent(file.name).path, &info) == 0 else { return nil }
            let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            lines.append("\(file.name) \(info.st_size) \(nanoseconds) \(info.st_ino) \(file.sha256)")
        }
        self.lines = lines
    }

    private init(lines: [String]) {
        self.lines = lines
    }

    /// The stamp written in `folder`, if any.
    static func recorded(in folder: URL) -> VerificationStamp? {
        guard let data = FileManager.default.contents(atPath: folder.appendingPathComponent(fileName).path) else {
            return nil
        }
        return VerificationStamp(lines: String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
    }

    /// Writes the stamp into `folder`. Failing to write (a read-only folder)
    /// only means the next load hashes again, so the error is dropped.
    func record(in folder: URL) {
        let text = lines.joined(separator: "\n") + "\n"
        try? Data(text.utf8).write(to: folder.appendingPathComponent(Self.fileName), options: .atomic)
    }
}

extension AssetStore {
    /// Checks the files of the model in `folder` against the pins of the
    /// model they claim to be, at most once per change of the files.
    ///
    /// A folder whose `model.bin` has the pinned size of a known model must
    /// hold that model: its files are hashed unless `VerificationStamp` says
    /// they were hashed since they last changed. A folder matching no pin (a
    /// user's own conversion) is not hashed; the loader's structural checks
    /// still apply.
    /// - Throws: `EngineError(.invalidModelFile)` naming the corrupted file
    ///   and `speech assets install <model>` as the fix.
    static func verifyPinnedContents(of folder: URL) throws {
        let modelBin = folder.appendingPathComponent("model.bin")
        guard let size = (try? FileManager.default.attributesOfItem(atPath: modelBin.path))?[.size] as? NSNumber,
              let model = ModelName.allCases.first(where: {
                  ModelAssetManifest.forModel($0).files.first?.byteCount == size.int64Value
              }) else { return }
        let files = ModelAssetManifest.forModel(model).files
        let current = VerificationStamp(folder: folder, files: files)
        if let current, current == VerificationStamp.recorded(in: folder) { return }
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw EngineError(.modelNotFound, "\(url.path) is missing. Run `\(model.installCommand)` to reinstall the model.")
            }
            let digest: String
            do { digest = try FileDigest.sha256(of: url) } catch {
                throw EngineError(.invalidModelFile, "Cannot read \(url.path). Run `\(model.installCommand)` to reinstall it.",
                                  underlying: error)
            }
            guard digest == file.sha256 else {
                throw EngineError(.invalidModelFile,
                                  "\(url.path) is corrupted: its SHA-256 is \(digest), expected \(file.sha256) "
                                      + "(a bad disk or an interrupted copy). Run `\(model.installCommand)` to reinstall it.")
            }
        }
        current?.record(in: folder)
    }
}
