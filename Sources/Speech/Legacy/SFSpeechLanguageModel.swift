import Foundation

/// Custom language models: turn exported training data into a model that
/// requests use through `customizedLanguageModel`.
///
/// - Note: On Linux the asset is SpeechCompat's JSON training data (or plain
///   text, one phrase per line; see the `Configuration` note), the prepared
///   model keeps the 100 most frequent phrases and the vocabulary the custom
///   terms. Requests using the configuration bias decoding toward them, like
///   contextual strings. Preparation runs on a background queue.
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

    private static func prepare(asset: URL, languageModel: URL, vocabulary: URL?, ignoresCache: Bool) throws {
        if !ignoresCache, isUpToDate(languageModel, comparedTo: asset),
           vocabulary.map({ isUpToDate($0, comparedTo: asset) }) ?? true {
            return
        }
        let training = try CustomLanguageModelFile.readTrainingData(at: asset)
        try training.writePrepared(languageModel: languageModel, vocabulary: vocabulary)
    }

    private static func isUpToDate(_ output: URL, comparedTo input: URL) -> Bool {
        let manager = FileManager.default
        guard let outputDate = (try? manager.attributesOfItem(atPath: output.path))?[.modificationDate] as? Date,
              let inputDate = (try? manager.attributesOfItem(atPath: input.path))?[.modificationDate] as? Date else {
            return false
        }
        return outputDate >= inputDate
    }
}
