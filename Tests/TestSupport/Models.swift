import Foundation
import SpeechEngine
import Testing

/// The installed models, loaded once per test process and shared.
///
/// Loading takes a second and a few hundred MB, so every full-model test uses
/// these instances. Without installed models the error names the command to run.
public enum Models {
    /// Whether full-model tests run: `SPEECHCOMPAT_MODEL_TESTS=1`, set by
    /// Scripts/test.sh for its release run. They take seconds per clip and
    /// hundreds of MB, so the debug suite leaves them out.
    public static let testsEnabled = ProcessInfo.processInfo.environment["SPEECHCOMPAT_MODEL_TESTS"] == "1"
    public static let disabledReason: Comment = "full-model test: set SPEECHCOMPAT_MODEL_TESTS=1 (Scripts/test.sh runs them in release)"

    private static let cache = Cache()

    /// The volatile-results model the faces use (whisper-tiny.en, int8).
    public static func volatileTranscriber() throws -> Transcriber {
        guard let transcriber = ModelCache.shared.volatileTranscriber(language: "en") else {
            throw EngineError(.modelNotFound, "whisper-tiny.en is not installed: speech assets install whisper-tiny.en")
        }
        return transcriber
    }

    public static func transcriber(_ name: ModelName = .whisperBase, computeType: ComputeType = .default) throws
        -> Transcriber {
        try cache.transcriber(name, computeType: computeType)
    }

    /// whisper-base in float arithmetic (half weights, float32's transcripts),
    /// for golden transcripts of the reference implementation: the default's
    /// int8 encoder may move a comma.
    public static func floatTranscriber() throws -> Transcriber {
        try cache.transcriber(.whisperBase, computeType: .float16Weights)
    }

    /// A model store in `folder` holding a copy of the installed
    /// whisper-base with bytes flipped in its weights (a bad disk, a partial
    /// copy), for `SPEECHCOMPAT_MODELS_DIR`. Returns the corrupted model.bin.
    public static func storeWithCorruptedWhisperBase(in folder: URL) throws -> URL {
        let copy = folder.appendingPathComponent(ModelName.whisperBase.rawValue)
        try FileManager.default.copyItem(at: try AssetStore.default.requireInstalled(.whisperBase), to: copy)
        let modelBin = copy.appendingPathComponent("model.bin")
        let handle = try FileHandle(forUpdating: modelBin)
        defer { try? handle.close() }
        for offset in stride(from: UInt64(1_000_000), to: 140_000_000, by: 23_000_000) {
            try handle.seek(toOffset: offset)
            try handle.write(contentsOf: Data([0xFF, 0x7F]))
        }
        return modelBin
    }

    private final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var loaded: [String: Transcriber] = [:]

        func transcriber(_ name: ModelName, computeType: ComputeType = .default) throws -> Transcriber {
            lock.lock()
            defer { lock.unlock() }
            let key = "\(name.rawValue) \(computeType.rawValue)"
            if let transcriber = loaded[key] { return transcriber }
            let transcriber = computeType == .default
                ? try Transcriber(model: name)
                : Transcriber(model: try WhisperModel(name, computeType: computeType))
            loaded[key] = transcriber
            return transcriber
        }
    }
}
