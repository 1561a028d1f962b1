import Foundation
import Testing
@testable import SpeechEngine

/// FIPS 180-4 / NIST test vectors.
@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Feeding bytes in uneven pieces gives the digest of the whole.
    @Test func chunkingDoesNotMatter() {
        let data = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let whole = SHA256.hex(of: data)
        for pieceSize in [1, 3, 55, 56, 63, 64, 65, 129, 999] {
            var hasher = SHA256()
            var start = 0
            while start < data.count {
                let end = min(start + pieceSize, data.count)
                hasher.update(data[start..<end])
                start = end
            }
            #expect(hasher.finalize() == whole, "piece size \(pieceSize)")
        }
    }

    @Test func fileDigestConcatenatesParts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = Data(repeating: 1, count: 5_000_001), second = Data("tail".utf8)
        try first.write(to: folder.appendingPathComponent("a"))
        try second.write(to: folder.appendingPathComponent("b"))
        let joined = folder.appendingPathComponent("joined")
        let digest = try FileDigest.concatenate([folder.appendingPathComponent("a"), folder.appendingPathComponent("b")],
                                                into: joined)
        #expect(digest == SHA256.hex(of: first + second))
        #expect(try Data(contentsOf: joined) == first + second)
        #expect(try FileDigest.sha256(of: joined) == digest)
    }
}
