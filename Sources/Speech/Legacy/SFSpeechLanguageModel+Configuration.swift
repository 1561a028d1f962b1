import Foundation

@available(iOS 17.0, macOS 14.0, *)
extension SFSpeechLanguageModel {
    /// Where a prepared custom language model lives: the model file, an
    /// optional vocabulary file and (iOS 26) a weight.
    ///
    /// Set it as a request's `customizedLanguageModel`.
    /// - Note: On Linux the class is declared at top level under its
    ///   Objective-C name, `SFSpeechLanguageModelConfiguration`, and named
    ///   `SFSpeechLanguageModel.Configuration` here: Linux Foundation's keyed
    ///   archiver traps on nested classes, and Apple's name must stay.
    public typealias Configuration = SFSpeechLanguageModelConfiguration
}

/// A prepared custom language model's files and weight; use it as
/// `SFSpeechLanguageModel.Configuration`, its Swift name on Apple platforms.
/// - Note: On Linux `weight` (0…1, default 0.5) scales how strongly the
///   model's phrases bias decoding.
@available(iOS 17.0, macOS 14.0, *)
open class SFSpeechLanguageModelConfiguration: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked: immutable after init.

    /// The prepared language model file.
    open private(set) var languageModel: URL
    /// The prepared vocabulary file, if any.
    open private(set) var vocabulary: URL?
    /// How much the model counts, 0.0…1.0 inclusive; nil for the default.
    @available(iOS 26.0, macOS 26.0, *)
    open var weight: NSNumber? { storedWeight }

    private let storedWeight: NSNumber?

    /// A configuration with a language model only.
    ///
    /// Designated, as Apple's is, so that a subclass can override it and
    /// call `super.init(languageModel:)`.
    public init(languageModel: URL) {
        self.languageModel = languageModel
        self.vocabulary = nil
        self.storedWeight = nil
    }

    /// A configuration with a language model and a vocabulary.
    ///
    /// Designated, as Apple's is (`super.init(languageModel:vocabulary:)`).
    public init(languageModel: URL, vocabulary: URL?) {
        self.languageModel = languageModel
        self.vocabulary = vocabulary
        self.storedWeight = nil
    }

    /// A configuration with a language model, a vocabulary and a weight
    /// (clamped to 0…1).
    @available(iOS 26.0, macOS 26.0, *)
    public init(languageModel: URL, vocabulary: URL?, weight: NSNumber?) {
        self.languageModel = languageModel
        self.vocabulary = vocabulary
        self.storedWeight = weight.map { NSNumber(value: max(0, min(1, $0.doubleValue))) }
    }

    /// The weight as a number in [0, 1] (0.5 when unset).
    var effectiveWeight: Double { storedWeight?.doubleValue ?? 0.5 }

    /// Returns `self`: configurations are immutable.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// `true`: configurations decode securely.
    public static var supportsSecureCoding: Bool { true }

    /// Encodes the URLs and weight.
    open func encode(with coder: NSCoder) {
        coder.encode(languageModel.absoluteString as NSString, forKey: "languageModel")
        coder.encode(vocabulary.map { $0.absoluteString as NSString }, forKey: "vocabulary")
        coder.encode(storedWeight, forKey: "weight")
    }

    /// Decodes a configuration written by `encode(with:)`.
    public required init?(coder: NSCoder) {
        guard let model = coder.decodeObject(of: NSString.self, forKey: "languageModel"),
              let modelURL = URL(string: model as String) else { return nil }
        languageModel = modelURL
        vocabulary = coder.decodeObject(of: NSString.self, forKey: "vocabulary").flatMap { URL(string: $0 as String) }
        storedWeight = coder.decodeObject(of: NSNumber.self, forKey: "weight")
    }

    /// Equal when the files and weight are equal.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SFSpeechLanguageModelConfiguration else { return false }
        return languageModel == other.languageModel && vocabulary == other.vocabulary
            && storedWeight == other.storedWeight
    }

    /// Hash of the model URL.
    open override var hash: Int { languageModel.hashValue }
}
