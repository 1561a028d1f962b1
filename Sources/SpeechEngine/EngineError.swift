import Foundation

/// The one error type of the engine: a code from a small extensible set, a
/// message that says what to do, and the underlying cause.
///
/// Modelled on swift-nio's `FileSystemError`: switch on `code`, show
/// `description` to people.
public struct EngineError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable, extensible set of codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Value: String, Sendable {
            case modelNotFound, invalidModelFile, unsupportedAudioFormat, unreadableAudio,
                 unsupportedLanguage, cancelled, internalInconsistency, assetInstallFailed,
                 invalidArgument, audioDeviceUnavailable, insufficientStorage
        }
        fileprivate let value: Value
        public var description: String { value.rawValue }

        /// No installed model where one was looked for.
        public static let modelNotFound = Code(value: .modelNotFound)
        /// A model file exists but is truncated, corrupted or of an unknown format.
        public static let invalidModelFile = Code(value: .invalidModelFile)
        /// The audio is in a format the engine cannot decode.
        public static let unsupportedAudioFormat = Code(value: .unsupportedAudioFormat)
        /// The audio file is missing, unreadable or truncated.
        public static let unreadableAudio = Code(value: .unreadableAudio)
        /// The requested language is not one the model knows.
        public static let unsupportedLanguage = Code(value: .unsupportedLanguage)
        /// The work was cancelled by its caller.
        public static let cancelled = Code(value: .cancelled)
        /// A bug: an invariant of the engine did not hold.
        public static let internalInconsistency = Code(value: .internalInconsistency)
        /// Downloading, verifying or installing a model failed.
        public static let assetInstallFailed = Code(value: .assetInstallFailed)
        /// An option or argument is out of range.
        public static let invalidArgument = Code(value: .invalidArgument)
        /// A capture device could not be opened or went away.
        public static let audioDeviceUnavailable = Code(value: .audioDeviceUnavailable)
        /// The disk (or quota, or file-size limit) ran out while installing a model.
        public static let insufficientStorage = Code(value: .insufficientStorage)
    }

    public var code: Code
    /// What happened and how to fix it, in one or two sentences.
    public var message: String
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        if let underlying {
            return "\(code): \(message) (underlying: \(underlying))"
        }
        return "\(code): \(message)"
    }
}
