import Foundation

/// An error from the migration tools: a code, a message that says what to
/// do, and the underlying cause if there is one.
public struct MigrationError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, broadly.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        init(_ rawValue: String) { self.rawValue = rawValue }

        /// A recognizer or transcriber could not be made for the locale.
        public static let unsupportedLocale = Code("unsupportedLocale")
        /// An audio file is missing or cannot be read.
        public static let audioUnreadable = Code("audioUnreadable")
        /// A recognition path failed (the face's error is `underlying`).
        public static let recognitionFailed = Code("recognitionFailed")
        /// An adapter could not map a value between the faces.
        public static let adapterFailure = Code("adapterFailure")
        /// A suite manifest is missing or malformed, or a value in it is out
        /// of range (``MigrationError/key`` names it).
        public static let invalidSuite = Code("invalidSuite")
        /// A golden file is missing, unreadable or not a recorded outcome.
        public static let invalidGolden = Code("invalidGolden")
        /// A path a suite names (a case id, an audio path, a golden) resolves
        /// outside the suite folder and that was not allowed.
        public static let pathOutsideSuite = Code("pathOutsideSuite")
        /// Shard reports given to `speech merge` do not fit together
        /// (different suites, overlapping cases, missing shards).
        public static let inconsistentReports = Code("inconsistentReports")
        /// A report could not be written.
        public static let outputFailed = Code("outputFailed")
        /// An adapter was used out of order (for example audio after `endAudio()`).
        public static let misuse = Code("misuse")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// What happened and how to fix it.
    public var message: String
    /// The error that caused this one.
    public var underlying: (any Error)?
    /// The offending key in a suite or golden file, as a path such as
    /// `cases[2].audio`, when the error is about one value.
    public var key: String?
    /// The offending value as written, when the error is about one value.
    public var value: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil, key: String? = nil,
                value: String? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.key = key
        self.value = value
    }

    /// The message, with the underlying error's message when there is one
    /// (an `NSError`'s description, not its userInfo dump).
    public var description: String {
        guard let underlying else { return message }
        let cause: String
        if let localized = underlying as? any LocalizedError, let text = localized.errorDescription {
            cause = text
        } else if type(of: underlying) is NSError.Type {
            cause = (underlying as NSError).localizedDescription
        } else {
            cause = String(describing: underlying)
        }
        return "\(message) (\(cause))"
    }
}

extension MigrationError: LocalizedError {
    /// The description, for `localizedDescription`.
    public var errorDescription: String? { description }
}
