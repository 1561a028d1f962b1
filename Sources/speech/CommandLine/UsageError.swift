/// A mistake in how the tool was called: an unknown option, a missing or
/// malformed value, a missing argument. The tool prints it with the
/// command's usage and exits 64.
struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as one sentence.
    var message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }
}
