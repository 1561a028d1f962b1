/// The command line of one command, split into options and positional
/// arguments against the command's ``OptionSpec`` list.
///
/// Accepted forms: `--key value`, `--key=value`, `-k value`, `--flag`,
/// `--no-flag`, repeated options, and `--` (everything after it is
/// positional, even if it starts with a dash). `-h` and `--help` anywhere
/// (before `--`) ask for help. A lone `-` is a positional argument (standard
/// input).
struct ParsedArguments: Sendable, Hashable {
    /// Values of value options, in command-line order, by long name.
    private(set) var values: [String: [String]] = [:]
    /// Flags set (true) or cleared (false), by long name.
    private(set) var flags: [String: Bool] = [:]
    /// Arguments that are not options, in order.
    private(set) var positionals: [String] = []
    /// True if `-h` or `--help` was given.
    private(set) var helpRequested = false

    /// Parses `arguments` (without the command's own name) against `specs`.
    /// - Throws: ``UsageError`` for an unknown option, a missing value, a
    ///   value given to a flag, or a single-valued option given twice.
    init(_ arguments: [String], specs: [OptionSpec]) throws(UsageError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals += remaining
                break
            }
            if argument == "-h" || argument == "--help" {
                helpRequested = true
            } else if argument.hasPrefix("--") {
                try parseLong(String(argument.dropFirst(2)), remaining: &remaining, specs: specs)
            } else if argument.hasPrefix("-"), argument.count > 1, !Self.isNumber(argument) {
                try parseShort(argument, remaining: &remaining, specs: specs)
            } else {
                positionals.append(argument)
            }
        }
    }

    private mutating func parseLong(_ body: String, remaining: inout ArraySlice<String>,
                                    specs: [OptionSpec]) throws(UsageError) {
        let name: String, inlineValue: String?
        if let equals = body.firstIndex(of: "=") {
            name = String(body[..<equals])
            inlineValue = String(body[body.index(after: equals)...])
        } else {
            name = body
            inlineValue = nil
        }
        if let spec = specs.first(where: { $0.name == name }) {
            try record(spec, spelled: "--\(name)", inlineValue: inlineValue, remaining: &remaining)
        } else if name.hasPrefix("no-"), let spec = specs.first(where: { $0.name == name.dropFirst(3) && $0.kind == .flag }) {
            guard inlineValue == nil else { throw UsageError("The flag '--\(name)' does not take a value.") }
            flags[spec.name] = false
        } else {
            throw UsageError("Unknown option '--\(name)'.")
        }
    }

    private mutating func parseShort(_ argument: String, remaining: inout ArraySlice<String>,
                                     specs: [OptionSpec]) throws(UsageError) {
        let letter = argument.dropFirst().first
        guard argument.count == 2, let spec = specs.first(where: { $0.shortName == letter }) else {
            throw UsageError("Unknown option '\(argument)'.")
        }
        try record(spec, spelled: argument, inlineValue: nil, remaining: &remaining)
    }

    private mutating func record(_ spec: OptionSpec, spelled: String, inlineValue: String?,
                                 remaining: inout ArraySlice<String>) throws(UsageError) {
        switch spec.kind {
        case .flag:
            guard inlineValue == nil else { throw UsageError("The flag '\(spelled)' does not take a value.") }
            flags[spec.name] = true
        case .value, .repeatedValue:
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if let next = remaining.first, next == "-" || !next.hasPrefix("-") || Self.isNumber(next) {
                value = next
                remaining.removeFirst()
            } else {
                throw UsageError("Missing value for '\(spelled) <\(spec.valueName)>'.")
            }
            if spec.kind == .value, values[spec.name] != nil {
                throw UsageError("The option '--\(spec.name)' was given more than once.")
            }
            values[spec.name, default: []].append(value)
        }
    }

    /// "-1" and "-0.5" are values, not options.
    private static func isNumber(_ argument: String) -> Bool {
        Double(argument) != nil
    }

    // MARK: Reading values

    /// The value of a single-valued option, if given.
    func value(_ name: String) -> String? { values[name]?.last }

    /// All values of a repeated option, in order.
    func allValues(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether a flag is set; `defaultValue` if it was not mentioned.
    func flag(_ name: String, default defaultValue: Bool = false) -> Bool { flags[name] ?? defaultValue }

    /// The value of an option parsed as a whole number in `range`.
    /// - Throws: ``UsageError`` if it is not a number in range.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("The value '\(text)' for '--\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return number
    }

    /// The value of an option that must be one of `choices`.
    /// - Throws: ``UsageError`` naming the choices.
    func choice(_ name: String, from choices: [String]) throws(UsageError) -> String? {
        guard let text = value(name) else { return nil }
        guard choices.contains(text) else {
            throw UsageError("The value '\(text)' for '--\(name)' must be one of: \(choices.joined(separator: ", ")).")
        }
        return text
    }
}
