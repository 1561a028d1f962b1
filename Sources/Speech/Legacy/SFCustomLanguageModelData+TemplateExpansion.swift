import Foundation

/// One template parsed and sized: which combinations of class values it
/// generates and with what counts.
///
/// A template with `n` combinations and a total `count` gives each combination
/// `count / n` samples (the first `count % n` one more); with fewer samples
/// than combinations, `count` combinations are taken at even steps, each once.
/// Combinations are numbered in mixed radix, the last slot fastest.
@available(macOS 14, iOS 17, visionOS 1.1, *)
struct TemplateExpansion {
    private enum Piece {
        case text(String)
        case slot([String])
    }

    private let pieces: [Piece]
    private let radices: [Int]
    private let combinationCount: Int
    private let total: Int
    /// The template's total sample count (its `count`, at least 0).
    var sampleTotal: Int { total }
    /// How many phrase counts the template yields: `min(count, combinations)`.
    let sampleCount: Int

    /// Parses `template` against `classes`.
    /// - Throws: `SFSpeechError(.undefinedTemplateClassName)` for a class that
    ///   is not defined or has no values, and for an unclosed `<`.
    init(_ template: SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template,
         classes: [String: [String]]) throws {
        var pieces: [Piece] = []
        var rest = Substring(template.body)
        while let open = rest.firstIndex(of: "<") {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: ">") else {
                throw Self.malformed(template, "it has a '<' without a closing '>'")
            }
            let name = String(rest[rest.index(after: open)..<close])
            guard let values = classes[name] else {
                let known = classes.keys.sorted().map { "<\($0)>" }.joined(separator: ", ")
                throw Self.malformed(template, "the class <\(name)> is not defined (defined: \(known.isEmpty ? "none" : known)); "
                    + "define it with define(className:values:) or in PhraseCountsFromTemplates(classes:)")
            }
            guard !values.isEmpty else {
                throw Self.malformed(template, "the class <\(name)> has no values")
            }
            pieces.append(.slot(values))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        self.pieces = pieces
        radices = pieces.compactMap { if case .slot(let values) = $0 { values.count } else { nil } }
        // Cap the product so that index arithmetic cannot overflow.
        combinationCount = radices.reduce(1) { product, radix in
            let (next, overflow) = product.multipliedReportingOverflow(by: radix)
            return overflow ? 1 << 62 : min(next, 1 << 62)
        }
        total = max(0, template.count)
        sampleCount = min(total, combinationCount)
    }

    /// The values of each class slot, in order; empty for a literal template.
    var slotValues: [[String]] {
        pieces.compactMap { if case .slot(let values) = $0 { values } else { nil } }
    }

    /// The `step`-th phrase count, `0 <= step < sampleCount`.
    func phraseCount(at step: Int) -> SFCustomLanguageModelData.PhraseCount {
        let combination: Int
        let count: Int
        if total >= combinationCount {
            combination = step
            count = total / combinationCount + (step < total % combinationCount ? 1 : 0)
        } else {
            // Even steps through the combinations: step * n / total, full width.
            let product = step.multipliedFullWidth(by: combinationCount)
            combination = total.dividingFullWidth(product).quotient
            count = 1
        }
        return SFCustomLanguageModelData.PhraseCount(phrase: phrase(combination), count: count)
    }

    /// The text of combination `index`, whitespace collapsed.
    private func phrase(_ index: Int) -> String {
        var digits: [Int] = Array(repeating: 0, count: radices.count)
        var remainder = index
        for slot in radices.indices.reversed() {
            digits[slot] = remainder % radices[slot]
            remainder /= radices[slot]
        }
        var slot = 0
        var text = ""
        for piece in pieces {
            switch piece {
            case .text(let literal):
                text += literal
            case .slot(let values):
                text += values[digits[slot]]
                slot += 1
            }
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func malformed(_ template: SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template,
                                  _ reason: String) -> SFSpeechError {
        SFSpeechError(.undefinedTemplateClassName, userInfo: [
            NSLocalizedDescriptionKey: "The custom language model templates were malformed.",
            NSLocalizedFailureReasonErrorKey: "The template \"\(template.body)\" cannot be expanded: \(reason).",
        ])
    }
}
