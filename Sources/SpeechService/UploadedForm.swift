import Foundation

/// The fields of a `multipart/form-data` (or url-encoded) body as it arrives:
/// text fields in memory, the `file` part streamed to a temporary file so
/// that an upload never sits in memory whole.
final class UploadedForm: @unchecked Sendable {
    // Touched only by the connection's thread (MHD calls one connection's
    // callbacks on its own thread in thread-per-connection mode).

    /// Text fields by name, in arrival order (`timestamp_granularities[]` repeats).
    private(set) var fields: [String: [String]] = [:]
    /// The uploaded file's temporary copy, once a `file` part has begun.
    private(set) var fileURL: URL?
    /// The uploaded file's name as the client sent it.
    private(set) var fileName: String?
    /// Bytes received in file parts and fields together.
    private(set) var byteCount = 0
    /// Set when the body grows past `byteLimit`; the rest is discarded.
    private(set) var exceededLimit = false

    private let byteLimit: Int
    private var fileHandle: FileHandle?
    /// Largest text field kept; beyond it a field is cut (prompts are short).
    private static let fieldByteLimit = 64 * 1024

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    deinit {
        try? fileHandle?.close()
        if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
    }

    /// The first value of a text field.
    func value(_ name: String) -> String? {
        fields[name]?.first
    }

    /// All values of a repeated text field.
    func values(_ name: String) -> [String] {
        fields[name] ?? []
    }

    /// Adds bytes of part `key`; a part with a file name (or named `file`)
    /// goes to the temporary file. Returns false when writing failed.
    func receive(key: String, fileName partFileName: String?, bytes: UnsafeRawBufferPointer) -> Bool {
        byteCount += bytes.count
        if byteCount > byteLimit {
            exceededLimit = true
            return true
        }
        if key == "file" || partFileName != nil {
            guard key == "file" else { return true }  // other file parts are ignored
            do {
                if fileHandle == nil {
                    let url = FileManager.default.temporaryDirectory
                        .appendingPathComponent("speech-serve-\(UUID().uuidString)")
                    guard FileManager.default.createFile(atPath: url.path, contents: nil) else { return false }
                    fileURL = url
                    fileName = partFileName ?? "upload"
                    fileHandle = try FileHandle(forWritingTo: url)
                }
                if bytes.count > 0 { try fileHandle?.write(contentsOf: Data(bytes)) }
            } catch {
                return false
            }
            return true
        }
        let text = String(decoding: bytes, as: UTF8.self)
        if var values = fields[key], let last = values.popLast(), receivingContinuation == key {
            // MHD hands long fields over in several pieces.
            if last.utf8.count < Self.fieldByteLimit { values.append(last + text) } else { values.append(last) }
            fields[key] = values
        } else {
            fields[key, default: []].append(text)
        }
        receivingContinuation = key
        return true
    }

    /// The field whose value the next piece of the same key continues.
    private var receivingContinuation: String?

    /// Marks the start of a new part (MHD's offset 0), so a repeated field
    /// starts a new value instead of continuing the last.
    func beginPart() {
        receivingContinuation = nil
    }

    /// Closes the temporary file so that it can be read.
    func finishReceiving() {
        try? fileHandle?.close()
        fileHandle = nil
    }
}
