import Foundation
@testable import SpeechEngine

/// The installed models' tokenizers, loaded once for all tokenizer tests.
///
/// Without installed models the tests fail with the error's message, which
/// names `speech assets install <name>`.
enum TokenizerFixtures {
    private static let loadedBase = Result { try load(.whisperBase) }
    private static let loadedTinyEn = Result { try load(.whisperTinyEn) }

    /// whisper-base's tokenizer (multilingual).
    static func base() throws -> BPETokenizer { try loadedBase.get() }

    /// whisper-tiny.en's tokenizer (English only).
    static func tinyEn() throws -> BPETokenizer { try loadedTinyEn.get() }

    private static func load(_ model: ModelName) throws -> BPETokenizer {
        let directory = try AssetStore.default.requireInstalled(model)
        return try BPETokenizer(directory: directory, isMultilingual: model.isMultilingual)
    }
}
