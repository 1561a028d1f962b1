import Foundation

/// Finds where a value sits in a JSON text, so that errors in `suite.json`
/// and golden files can name a line: `JSONDecoder` reports only a coding
/// path, and on Linux says nothing but "not valid JSON" for syntax errors.
///
/// A small scanner over the UTF-8 bytes: it walks the text once, tracking
/// the key path and the line, and stops at the target value or at the first
/// syntax error. It never builds the document.
struct JSONLocator {
    /// One step of a key path: an object key or an array index.
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    /// Where a value starts and what kind of value it is.
    struct Location: Hashable, Sendable {
        /// 1-based line.
        var line: Int
        /// "a string", "a number", "an object", "an array", "true", "false" or "null".
        var kind: String
    }

    /// The first syntax error: its 1-based line and column and what was expected.
    struct SyntaxError: Error, Hashable, Sendable {
        var line: Int
        var column: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var lineStart = 0
    private var target: [Component]?
    private var found: Location?

    private init(_ data: Data, target: [Component]?) {
        bytes = Array(data)
        self.target = target
    }

    /// Where the value at `path` starts, or nil if the text has no such value.
    static func location(of path: [Component], in data: Data) -> Location? {
        var scanner = JSONLocator(data, target: path)
        try? scanner.document()
        return scanner.found
    }

    /// The first syntax error in `data`, or nil when the text is valid JSON.
    static func syntaxError(in data: Data) -> SyntaxError? {
        var scanner = JSONLocator(data, target: nil)
        do {
            try scanner.document()
            return nil
        } catch let error as SyntaxError {
            return error
        } catch {
            return nil
        }
    }

    /// The components of a decoder's coding path (array indices have an `intValue`).
    static func components(_ codingPath: [any CodingKey]) -> [Component] {
        codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }

    /// `cases[2].audio` for a path.
    static func keyPath(_ components: [Component]) -> String {
        var text = ""
        for component in components {
            switch component {
            case .key(let name): text += text.isEmpty ? name : ".\(name)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text.isEmpty ? "(top level)" : text
    }

    // MARK: Scanning

    /// Thrown to stop scanning once the target is found.
    private struct Found: Error {}

    private mutating func document() throws {
        skipWhitespace()
        if position == bytes.count { throw error("the file is empty; it must hold one JSON object") }
        try value(at: [])
        skipWhitespace()
        if position < bytes.count { throw error("unexpected text after the end of the JSON value") }
    }

    private mutating func value(at path: [Component]) throws {
        skipWhitespace()
        guard position < bytes.count else { throw error("the text ends where a value was expected") }
        let kind: String
        switch bytes[position] {
        case UInt8(ascii: "{"): kind = "an object"
        case UInt8(ascii: "["): kind = "an array"
        case UInt8(ascii: "\""): kind = "a string"
        case UInt8(ascii: "t"): kind = "true"
        case UInt8(ascii: "f"): kind = "false"
        case UInt8(ascii: "n"): kind = "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): kind = "a number"
        default: throw error("expected a value (a string in double quotes, a number, true, false, null, { or [)")
        }
        if path == target {
            found = Location(line: line, kind: kind)
            throw Found()
        }
        switch kind {
        case "an object": try object(at: path)
        case "an array": try array(at: path)
        case "a string": _ = try string()
        case "a number": try number()
        default: try literal(kind)
        }
    }

    private mutating func object(at path: [Component]) throws {
        position += 1
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { position += 1; return }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw error("expected a key in double quotes") }
            let key = try string()
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the key \"\(key)\"") }
            position += 1
            try value(at: path + [.key(key)])
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { position += 1; continue }
            if peek(UInt8(ascii: "}")) { position += 1; return }
            throw error("expected ',' or '}' after the value of \"\(key)\" (a missing comma?)")
        }
    }

    private mutating func array(at path: [Component]) throws {
        position += 1
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { position += 1; return }
        var index = 0
        while true {
            try value(at: path + [.index(index)])
            index += 1
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { position += 1; continue }
            if peek(UInt8(ascii: "]")) { position += 1; return }
            throw error("expected ',' or ']' in the list (a missing comma?)")
        }
    }

    /// Reads a string literal and returns its text (escapes decoded).
    private mutating func string() throws -> String {
        position += 1
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { break }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                case UInt8(ascii: "r"): text.append(0x0D)
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "u"):
                    let hex = bytes[position..<min(position + 4, bytes.count)]
                    guard hex.count == 4, let code = UInt32(String(decoding: hex, as: UTF8.self), radix: 16) else {
                        throw error("a \\u escape needs four hexadecimal digits")
                    }
                    position += 4
                    text += Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(escape)
                default: throw error("unknown escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                }
            case 0x0A:
                position -= 1
                throw error("a string runs past the end of the line (a missing closing quote?)")
            default: text.append(byte)
            }
        }
        throw error("a string is not closed (a missing closing quote)")
    }

    private mutating func number() throws {
        let start = position
        while position < bytes.count, "+-0123456789.eE".utf8.contains(bytes[position]) { position += 1 }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let number = Double(text) else { throw error("'\(text)' is not a number") }
        guard number.isFinite else { throw error("the number \(text) is too large to represent") }
    }

    private mutating func literal(_ word: String) throws {
        let expected = Array(word.utf8)
        guard bytes.count - position >= expected.count,
              Array(bytes[position..<position + expected.count]) == expected else {
            throw error("expected \(word) (JSON words are lower case; strings need double quotes)")
        }
        position += expected.count
    }

    private func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x0A:
                line += 1
                lineStart = position + 1
            case 0x20, 0x09, 0x0D: break
            default: return
            }
            position += 1
        }
    }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(line: line, column: position - lineStart + 1, message: message)
    }
}
