/// Why a shard such as `2/4` was refused.
public struct ShardError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of problem.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Not of the form `I/N` with two whole numbers.
        public static let malformed = Code(rawValue: "malformed")
        /// The index is 0 or larger than the count.
        public static let indexOutOfRange = Code(rawValue: "indexOutOfRange")
        /// The count is 0 or larger than ``Shard/maximumCount``.
        public static let countOutOfRange = Code(rawValue: "countOutOfRange")

        /// The code's name.
        public var description: String { rawValue }
    }

    /// The kind of problem.
    public var code: Code
    /// The text that was given, e.g. `5/4`.
    public var text: String
    /// What is wrong and how to fix it.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ text: String, _ message: String) {
        self.code = code
        self.text = text
        self.message = message
    }

    /// "Invalid shard '5/4': the shard index 5 must be from 1 to 4 …".
    public var description: String { "Invalid shard '\(text)': \(message)" }
}
