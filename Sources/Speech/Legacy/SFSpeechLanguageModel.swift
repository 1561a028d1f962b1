import Foundation

/// Custom language models: turn exported training data into a model that
/// requests use through `customizedLanguageModel`.
///
/// - Note: On Linux the asset is the JSON file `SFCustomLanguageModelData.export(to:)`
///   writes (plain text, one phrase per line, is read too). The prepared model
///   keeps up to 100 inserted phrases, the most frequent first but favouring
///   phrases that add words not yet covered, and the templates' class values
///   by how many samples use them (not the templates' expansions, whose fixed
///   words are ordinary language); the vocabulary keeps the custom terms with
///   supported pronunciations. A request using the configuration biases the
///   Whisper decoder toward the terms' written forms, the class values and
///   the phrases (at most 100, about 600 characters), like contextual
///   strings, scaled by the configuration's `weight`. Preparation runs on a
///   background queue; `clientIdentifier` is accepted and unused.
@available(iOS 17.0, macOS 14.0, *)
open class SFSpeechLanguageModel: NSObject {
    /// Prepares the model files named by `configuration` from `asset`.
    @available(iOS, introduced: 17.0, deprecated: 26.0, message: "Use prepareCustomLanguageModel(for:configuration:completion:)")
    @available(macOS, introduced: 14.0, deprecated: 26.0, message: "Use prepareCustomLanguageModel(for:configuration:completion:)")
    open class func prepareCustomLanguageModel(for asset: URL, clientIdentifier: String,
                                               configuration: SFSpeechLanguageModel.Configuration,
                                               completion: @escaping @Sendable ((any Error)?) -> Void) {
        prepareCustomLanguageModel(for: asset, configuration: configuration, ignoresCache: false, completion: completion)
    }

    /// Prepares the model files, rebuilding them when `ignoresCache` is true.
    @available(iOS, introduced: 17.0, deprecated: 26.0, message: "Use prepareCustomLanguageModel(for:configuration:ignoresCache:completion:)")
    @available(macOS, introduced: 14.0, deprecated: 26.0, message: "Use prepareCustomLanguageModel(for:configuration:ignoresCache:completion:)")
    open class func prepareCustomLanguageModel(for asset: URL, clientIdentifier: String,
                                               configuration: SFSpeechLanguageModel.Configuration,
                                               ignoresCache: Bool,
                                               completion: @escaping @Sendable ((any Error)?) -> Void) {
        prepareCustomLanguageModel(for: asset, configuration: configuration, ignoresCache: ignoresCache,
                                   completion: completion)
    }

    /// Prepares the model files named by `configuration` from `asset`.
    open class func prepareCustomLanguageModel(for asset: URL, configuration: SFSpeechLanguageModel.Configuration,
                                               completion: @escaping @Sendable ((any Error)?) -> Void) {
        prepareCustomLanguageModel(for: asset, configuration: configuration, ignoresCache: false, completion: completion)
    }

    /// Prepares the model files; with `ignoresCache == false` files newer
    /// than the asset are kept as they are.
    open class func prepareCustomLanguageModel(for asset: URL, configuration: SFSpeechLanguageModel.Configuration,
                                               ignoresCache: Bool,
                                               completion: @escaping @Sendable ((any Error)?) -> Void) {
        let languageModel = configuration.languageModel
        let vocabulary = configuration.vocabulary
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                try prepare(asset: asset, languageModel: languageModel, vocabulary: vocabulary, ignoresCache: ignoresCache)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// Prepares the model files named by `configuration` from `asset`.
    @available(iOS, introduced: 17.0, deprecated: 26.0, message: "Use prepareCustomLanguageModel(for:configuration:)")
    @available(macOS, introduced: 14.0, deprecated: 26.0, message: "Use prepareCustomLanguageModel(for:configuration:)")
    open class func prepareCustomLanguageModel(for asset: URL, clientIdentifier: String,
                                               configuration: SFSpeechLanguageModel.Configuration) async throws {
        try await prepareCustomLanguageModel(for: asset, configuration: configuration, ignoresCache: false)
    }

    /// Prepares the model files, rebuilding them when `ignoresCache` is true.
    @available(iOS, introduced: 17.0, deprecated: 26.0, message: "Use prepareCustomLanguageModel(for:configuration:ignoresCache:)")
    @available(macOS, introduced: 14.0, deprecated: 26.0, message: "Use prepareCustomLanguageModel(for:configuration:ignoresCache:)")
    open class func prepareCustomLanguageModel(for asset: URL, clientIdentifier: String,
                                               configuration: SFSpeechLanguageModel.Configuration,
                                               ignoresCache: Bool) async throws {
        try await prepareCustomLanguageModel(for: asset, configuration: configuration, ignoresCache: ignoresCache)
    }

    /// Prepares the model files named by `configuration` from `asset`.
    open class func prepareCustomLanguageModel(for asset: URL, configuration: SFSpeechLanguageModel.Configuration)
        async throws {
        try await prepareCustomLanguageModel(for: asset, configuration: configuration, ignoresCache: false)
    }

    /// Prepares the model files, rebuilding them when `ignoresCache` is true.
    open class func prepareCustomLanguageModel(for asset: URL, configuration: SFSpeechLanguageModel.Configuration,
                                               ignoresCache: Bool) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            prepareCustomLanguageModel(for: asset, configuration: configuration, ignoresCache: ignoresCache) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
    }
}
