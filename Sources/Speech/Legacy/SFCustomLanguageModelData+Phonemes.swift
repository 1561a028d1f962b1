import Foundation

/// X-SAMPA symbol inventories per language, and the check that a custom
/// pronunciation uses only them.
///
/// Apple does not publish the lists `supportedPhonemes(locale:)` returns;
/// these are the phonemes of each language in standard X-SAMPA (including
/// the r-coloured `@r`/`3r` Apple's own SpokenWord sample writes, and length
/// marks as separate symbols such as `i:`).
enum PhonemeInventory {
    /// Marks allowed in front of a symbol: primary and secondary stress.
    static let stressMarks: Set<Character> = ["\"", "%"]
    /// Tokens that separate syllables or words and carry no sound.
    static let boundaries: Set<String> = [".", "#", "-"]

    private static let inventories: [String: [String]] = [
        "en": ["p", "b", "t", "d", "k", "g", "f", "v", "T", "D", "s", "z", "S", "Z", "h", "tS", "dZ",
               "m", "n", "N", "l", "r", "r\\", "w", "j", "W", "4", "?", "m=", "n=", "l=",
               "i", "i:", "I", "e", "E", "{", "a", "A", "A:", "Q", "O", "O:", "o", "U", "u", "u:", "V",
               "@", "3", "3:", "@r", "3r", "@`", "3`",
               "eI", "aI", "OI", "aU", "oU", "@U", "I@", "e@", "U@"],
        "es": ["p", "b", "B", "t", "d", "D", "k", "g", "G", "f", "T", "s", "z", "x", "h", "tS", "jj", "J\\",
               "m", "n", "J", "N", "l", "L", "r", "4", "j", "w", "a", "e", "i", "o", "u"],
        "fr": ["p", "b", "t", "d", "k", "g", "f", "v", "s", "z", "S", "Z", "m", "n", "J", "N", "l", "R",
               "j", "w", "H", "i", "e", "E", "a", "A", "O", "o", "u", "y", "2", "9", "@",
               "e~", "E~", "a~", "o~", "O~", "9~"],
        "de": ["p", "b", "t", "d", "k", "g", "f", "v", "s", "z", "S", "Z", "C", "x", "h", "j", "pf", "ts",
               "tS", "dZ", "m", "n", "N", "l", "R", "r", "6", "?",
               "i", "i:", "I", "e", "e:", "E", "E:", "a", "a:", "O", "o", "o:", "U", "u", "u:",
               "y", "y:", "Y", "2", "2:", "9", "@", "aI", "aU", "OY"],
        "it": ["p", "b", "t", "d", "k", "g", "f", "v", "s", "z", "S", "ts", "dz", "tS", "dZ",
               "m", "n", "J", "N", "l", "L", "r", "j", "w", "i", "e", "E", "a", "O", "o", "u"],
        "pt": ["p", "b", "t", "d", "k", "g", "f", "v", "s", "z", "S", "Z", "tS", "dZ", "m", "n", "J",
               "l", "L", "r", "R", "4", "x", "h", "j", "w", "i", "e", "E", "a", "6", "O", "o", "u", "@",
               "i~", "e~", "6~", "o~", "u~", "j~", "w~"],
    ]

    /// The symbols of `locale`'s language; empty for languages without a list.
    static func symbols(for locale: Locale) -> [String] {
        inventories[language(of: locale)] ?? []
    }

    /// The language code of `locale` (`en` for `en_US`, `en-GB`, …).
    private static func language(of locale: Locale) -> String {
        let identifier = locale.identifier.lowercased()
        return String(identifier.prefix { $0 != "-" && $0 != "_" && $0 != "@" })
    }

    /// The symbols of `pronunciation` that `locale` does not support, in
    /// order; empty when every symbol is supported. A pronunciation is
    /// space-separated symbols, each optionally preceded by stress marks.
    static func unsupportedSymbols(in pronunciation: String, locale: Locale) -> [String] {
        let supported = Set(symbols(for: locale))
        var unsupported: [String] = []
        let tokens = pronunciation.split(whereSeparator: \.isWhitespace).map(String.init)
        for token in tokens where !boundaries.contains(token) {
            let symbol = String(token.drop { stressMarks.contains($0) })
            if symbol.isEmpty { continue }
            if !supported.contains(symbol) { unsupported.append(token) }
        }
        if tokens.allSatisfy({ boundaries.contains($0) || $0.allSatisfy(stressMarks.contains) }) {
            unsupported.append(pronunciation)  // no sound at all
        }
        return unsupported
    }
}
