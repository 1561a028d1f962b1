import Foundation

/// Hashing and copying of large files in fixed-size chunks, so that a
/// 145 MB model never sits in memory whole.
enum FileDigest {
    /// Bytes read per chunk.
    static let chunkByteCount = 4 << 20

    /// The SHA-256 of a file's contents, lowercase hex.
    /// - Parameter progress: called after each chunk with the bytes read so far.
    static func sha256(of url: URL, progress: (Int64) -> Void = { _ in }) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        var byteCount: Int64 = 0
        while let chunk = try handle.read(upToCount: chunkByteCount), !chunk.isEmpty {
            hasher.update(chunk)
            byteCount += Int64(chunk.count)
            progress(byteCount)
        }
        return hasher.finalize()
    }

    /// Writes the concatenation of `parts` to `destination` (which must not
    /// exist) and returns the SHA-256 of what was written.
    /// - Parameter progress: called after each chunk with the bytes written so far.
    static func concatenate(_ parts: [URL], into destination: URL,
                            progress: (Int64) -> Void = { _ in }) throws -> String {
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        var hasher = SHA256()
        var byteCount: Int64 = 0
        for part in parts {
            let input = try FileHandle(forReadingFrom: part)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: chunkByteCount), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
                hasher.update(chunk)
                byteCount += Int64(chunk.count)
                progress(byteCount)
            }
        }
        try output.synchronize()
        return hasher.finalize()
    }
}
