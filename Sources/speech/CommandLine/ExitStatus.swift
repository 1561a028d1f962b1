/// The tool's exit statuses, following BSD `sysexits.h` as
/// swift-argument-parser does.
enum ExitStatus: Int32, Sendable {
    /// Success, including help and version output.
    case success = 0
    /// A runtime failure: unreadable file, missing model, engine error.
    case failure = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
}
