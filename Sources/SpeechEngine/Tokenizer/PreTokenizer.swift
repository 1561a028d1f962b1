/// Splits text into the pieces that byte-pair encoding works on, exactly as
/// GPT-2's (and Whisper's) pre-tokenizing regular expression does:
///
///     's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
///
/// Written as a hand scanner over Unicode scalars (the regex's unit), trying
/// the alternatives in order at each position, so no regex engine is needed.
/// BPE merges never cross a piece boundary.
///
/// ref: openai/whisper whisper/tokenizer.py `get_encoding` (`pat_str`).
enum PreTokenizer {
    /// The pieces of `text`, in order; concatenated they give `text` back.
    static func pieces(of text: String) -> [Substring] {
        let scalars = text.unicodeScalars
        var pieces: [Substring] = []
        var start = scalars.startIndex
        while start < scalars.endIndex {
            let end = pieceEnd(in: scalars, from: start)
            pieces.append(Substring(scalars[start..<end]))
            start = end
        }
        return pieces
    }

    /// The end of the piece starting at `start` (which is not the end).
    private static func pieceEnd(in scalars: String.UnicodeScalarView,
                                 from start: String.Index) -> String.Index {
        let first = scalars[start]
        let afterFirst = scalars.index(after: start)

        // 's|'t|'re|'ve|'m|'ll|'d
        if first == "'", let end = contractionEnd(in: scalars, after: afterFirst) {
            return end
        }
        // An optional single space (U+0020 only) before a letter, number or
        // symbol run belongs to that run.
        var runStart = start
        if first == " ", afterFirst < scalars.endIndex {
            runStart = afterFirst
        }
        let runFirst = scalars[runStart]
        if runStart != start || !isWhitespace(runFirst) {
            let kind = ScalarKind(runFirst)
            if kind != .whitespace {
                // ` ?\p{L}+`, ` ?\p{N}+`, ` ?[^\s\p{L}\p{N}]+`
                var end = scalars.index(after: runStart)
                while end < scalars.endIndex, ScalarKind(scalars[end]) == kind {
                    end = scalars.index(after: end)
                }
                return end
            }
        }
        // Whitespace: `\s+(?!\S)` keeps the last whitespace scalar for the next
        // piece when non-whitespace follows (so " word" stays together);
        // `\s+` takes a lone whitespace scalar before non-whitespace.
        var end = afterFirst
        var beforeEnd = start
        while end < scalars.endIndex, isWhitespace(scalars[end]) {
            beforeEnd = end
            end = scalars.index(after: end)
        }
        if end < scalars.endIndex, beforeEnd != start {
            return beforeEnd
        }
        return end
    }

    /// The end of a contraction suffix after an apostrophe, if one follows.
    private static func contractionEnd(in scalars: String.UnicodeScalarView,
                                       after index: String.Index) -> String.Index? {
        guard index < scalars.endIndex else { return nil }
        let next = scalars.index(after: index)
        switch scalars[index] {
        case "s", "t", "m", "d":
            return next
        case "r", "v":
            if next < scalars.endIndex, scalars[next] == "e" { return scalars.index(after: next) }
        case "l":
            if next < scalars.endIndex, scalars[next] == "l" { return scalars.index(after: next) }
        default:
            break
        }
        return nil
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace
    }

    /// The regex classes a run is made of.
    private enum ScalarKind: Equatable {
        case letter, number, whitespace, other

        init(_ scalar: Unicode.Scalar) {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
                self = .letter
            case .decimalNumber, .letterNumber, .otherNumber:
                self = .number
            default:
                self = scalar.properties.isWhitespace ? .whitespace : .other
            }
        }
    }
}
