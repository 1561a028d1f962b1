import Foundation
import SpeechEvaluation

/// Appends `id<TAB>hypothesis` lines to a file as clips finish, so an
/// interrupted evaluation keeps its results. The file is created (or
/// emptied) when the writer is made.
final class HypothesisWriter {
    private let handle: FileHandle
    /// The file written.
    let path: String

    /// Creates or truncates the file at `path`.
    /// - Throws: `CocoaError` if the file cannot be created.
    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [
                NSLocalizedDescriptionKey: "cannot create '\(path)'; check the folder exists and is writable.",
            ])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    /// Writes one clip's line.
    func append(id: String, hypothesis: String) throws {
        try handle.write(contentsOf: Data(HypothesisFile.line(id: id, hypothesis: hypothesis).utf8))
    }

    deinit {
        try? handle.close()
    }
}
