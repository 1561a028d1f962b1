/// One option a command accepts: its spelling, whether it takes a value, and
/// its line of help. Commands list these beside their options struct, so the
/// parser and the help text read the same declaration.
struct OptionSpec: Sendable, Hashable {
    /// How an option appears on the command line.
    enum Kind: Sendable, Hashable {
        /// `--name` sets it, `--no-name` clears it.
        case flag
        /// `--name VALUE` or `--name=VALUE`, at most once.
        case value
        /// `--name VALUE`, any number of times; values are kept in order.
        case repeatedValue
    }

    /// The long name without dashes, e.g. "language".
    var name: String
    /// A one-letter alias without its dash, if any.
    var shortName: Character?
    var kind: Kind
    /// The placeholder shown in help, e.g. "N" or "xx|auto".
    var valueName: String
    /// One line (or two) of help.
    var help: String
    /// For a flag: whether it is on unless `--no-<name>` is given.
    var isOnByDefault = false

    /// A flag: `--name` / `--no-name`.
    static func flag(_ name: String, short: Character? = nil, help: String, onByDefault: Bool = false) -> OptionSpec {
        OptionSpec(name: name, shortName: short, kind: .flag, valueName: "", help: help, isOnByDefault: onByDefault)
    }

    /// An option taking one value.
    static func value(_ name: String, short: Character? = nil, _ valueName: String, help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: short, kind: .value, valueName: valueName, help: help)
    }

    /// An option that may be repeated.
    static func repeated(_ name: String, _ valueName: String, help: String) -> OptionSpec {
        OptionSpec(name: name, shortName: nil, kind: .repeatedValue, valueName: valueName, help: help)
    }

    /// The option as help shows it: "-b, --beam <N>" or "--[no-]words".
    var synopsis: String {
        let long: String
        switch kind {
        case .flag: long = isOnByDefault ? "--[no-]\(name)" : "--\(name)"
        case .value, .repeatedValue: long = "--\(name) <\(valueName)>"
        }
        if let shortName { return "-\(shortName), \(long)" }
        return long
    }
}
