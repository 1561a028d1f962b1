import Foundation

/// Decodes `suite.json`, golden files and shard reports, turning a
/// `DecodingError` into one sentence a user can act on:
/// `suite.json line 7, key cases[1].maximumWordErrorRate: expected a number,
/// found a string. Give the largest WER allowed, from 0 to 1, e.g. 0.2.`
///
/// The key path comes from the error's coding path, the line from
/// ``JSONLocator`` (the decoder gives none), and the fix from `hints`, keyed
/// by the last key's name.
enum SuiteJSONDecoding {
    /// Decodes `T` from `data` read from `file`.
    /// - Parameters:
    ///   - code: the code of the error thrown (`.invalidSuite`, `.invalidGolden`, …).
    ///   - hints: how to fix a value, by key name (for example `"audio"`).
    ///   - fix: what to do when no hint applies.
    /// - Throws: `MigrationError` with the message, `key` and `value` set.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: URL, code: MigrationError.Code,
                                     hints: [String: String], fix: String) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error, data: data, file: file, code: code, hints: hints, fix: fix)
        } catch {
            throw MigrationError(code, "\(file.path) cannot be decoded. \(fix)", underlying: error)
        }
    }

    /// The `MigrationError` for a decoding failure of `data` read from `file`.
    static func describe(_ error: DecodingError, data: Data, file: URL, code: MigrationError.Code,
                         hints: [String: String], fix: String) -> MigrationError {
        if let syntax = JSONLocator.syntaxError(in: data) {
            return MigrationError(code, "\(file.path) line \(syntax.line), column \(syntax.column): not valid JSON: "
                                  + "\(syntax.message). Fix the JSON syntax there.")
        }
        let path: [JSONLocator.Component]
        let problem: String
        var hintKey: String?
        switch error {
        case .typeMismatch(let type, let context):
            path = JSONLocator.components(context.codingPath)
            let found = JSONLocator.location(of: path, in: data)?.kind
            problem = "expected \(describe(type))" + (found.map { ", found \($0)" } ?? "")
        case .valueNotFound(let type, let context):
            path = JSONLocator.components(context.codingPath)
            problem = "null is not allowed here; expected \(describe(type))"
        case .keyNotFound(let key, let context):
            path = JSONLocator.components(context.codingPath)
            problem = "the required key \"\(key.stringValue)\" is missing"
            hintKey = key.stringValue
        case .dataCorrupted(let context):
            path = JSONLocator.components(context.codingPath)
            problem = context.debugDescription.hasPrefix("Cannot initialize")
                ? "\(quotedValue(at: path, in: data) ?? "the value") is not an accepted value"
                : context.debugDescription
        @unknown default:
            path = []
            problem = String(describing: error)
        }
        let keyPath = JSONLocator.keyPath(path)
        let lastKey = hintKey ?? path.reversed().lazy.compactMap { component -> String? in
            if case .key(let name) = component { return name }
            return nil
        }.first
        let hint = lastKey.flatMap { hints[$0] } ?? fix
        let line = JSONLocator.location(of: path, in: data)?.line
        let place = line.map { " line \($0)," } ?? ""
        // The DecodingError itself is left out: its dump is what this replaces.
        return MigrationError(code, "\(file.path)\(place) key \(keyPath): \(problem). \(hint)",
                              key: keyPath, value: quotedValue(at: path, in: data))
    }

    /// "a number" for `Double`, and so on.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string in double quotes"
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type: return "a whole number"
        case is Bool.Type: return "true or false"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "a list in [ ]" }
            if name.hasPrefix("Dictionary") { return "an object in { }" }
            return name
        }
    }

    /// The value at `path` as written, for a short string, number or literal.
    static func quotedValue(at path: [JSONLocator.Component], in data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        var current: Any = object
        for component in path {
            switch component {
            case .key(let key):
                guard let dictionary = current as? [String: Any], let next = dictionary[key] else { return nil }
                current = next
            case .index(let index):
                guard let array = current as? [Any], array.indices.contains(index) else { return nil }
                current = array[index]
            }
        }
        switch current {
        case let text as String: return "\"\(text.count > 80 ? String(text.prefix(80)) + "…" : text)\""
        case let number as NSNumber: return number.stringValue
        case is NSNull: return "null"
        default: return nil
        }
    }
}
