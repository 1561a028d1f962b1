/// Why the service could not start or keep running, with what to do about it.
public struct ServeError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable set of codes.
    public enum Code: String, Sendable {
        /// The HTTP address is taken, not allowed, or not an address.
        case cannotListen
        /// The unix socket path cannot be bound (taken by a live service, too long, no permission).
        case cannotBindSocket
        /// The model could not be loaded.
        case modelUnavailable
    }

    /// What went wrong.
    public var code: Code
    /// What happened and how to fix it.
    public var message: String

    /// An error with `code` and a message that says how to fix it.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`, as the CLI prints it.
    public var description: String { "\(code.rawValue): \(message)" }
}
