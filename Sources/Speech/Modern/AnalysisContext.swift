import Foundation

/// Contextual information for an analysis: vocabulary hints and app data.
///
/// Apple's analyzer uses the context to improve accuracy, for example by
/// biasing recognition toward the words in `contextualStrings`. One context
/// object may be shared by several analyzers.
/// - Note: On Linux every string in `contextualStrings` (all tags) becomes a
///   phrase the Whisper decoder is biased toward (prompting plus logit
///   biasing). A context set on a running analyzer applies from the next
///   recognition session, which starts after a finalization point.
@available(macOS 26.0, iOS 26.0, *)
@available(tvOS, unavailable)
@available(watchOS, unavailable)
public final class AnalysisContext: Sendable {
    private struct State {
        var contextualStrings: [ContextualStringsTag: [String]] = [:]
        var userData: [UserDataTag: any Sendable] = [:]
    }

    private let state = LockedState(State())

    /// Creates an empty context.
    public init() {}

    /// Supplemental vocabulary, grouped by tag (`.general` is predefined).
    /// - Note: On Linux all tags are treated alike.
    public final var contextualStrings: [ContextualStringsTag: [String]] {
        get { state.withLock { $0.contextualStrings } }
        set { state.withLock { $0.contextualStrings = newValue } }
    }

    /// App-specific data attached to the context; the analyzer ignores it.
    public final var userData: [UserDataTag: any Sendable] {
        get { state.withLock { $0.userData } }
        set { state.withLock { $0.userData = newValue } }
    }

    /// A tag that groups contextual strings.
    public struct ContextualStringsTag: RawRepresentable, Sendable, Equatable, Hashable {
        /// The tag's name.
        public let rawValue: String

        /// Creates a tag from its name.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a tag from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// Strings that apply to the analysis in general.
        public static let general = ContextualStringsTag("general")
    }

    /// A tag that names an entry of `userData`.
    public struct UserDataTag: RawRepresentable, Sendable, Equatable, Hashable {
        /// The tag's name.
        public let rawValue: String

        /// Creates a tag from its name.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a tag from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }
    }
}

extension AnalysisContext {
    /// Every contextual string, tags in name order, duplicates removed: the
    /// phrases handed to the engine.
    var phrases: [String] {
        let groups = contextualStrings.sorted { $0.key.rawValue < $1.key.rawValue }
        var seen = Set<String>()
        var result: [String] = []
        for (_, strings) in groups {
            for string in strings {
                let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty, seen.insert(trimmed).inserted { result.append(trimmed) }
            }
        }
        return result
    }
}
