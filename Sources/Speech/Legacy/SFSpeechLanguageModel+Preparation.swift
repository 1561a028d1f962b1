import Foundation

/// What `prepareCustomLanguageModel` does on Linux: training data in, a
/// ranked phrase list and the template class values (the language model) and
/// the usable terms (the vocabulary) out.
///
/// Template expansions are not biasing phrases: their fixed words are
/// ordinary language ("the patient was prescribed <drug>"), and biasing the
/// decoder toward hundreds of phrases that share them made it repeat them in
/// a loop (Benchmarks/RESULTS.md, custom language model). The class values
/// carry what is particular to the domain.
@available(iOS 17.0, macOS 14.0, *)
extension SFSpeechLanguageModel {
    /// Prepares `languageModel` (and `vocabulary`) from the training data at
    /// `asset`, unless both are newer than it and `ignoresCache` is false.
    /// - Throws: `SFSpeechError(.malformedSupplementalModel)` when the data is
    ///   unusable; file-system errors when the outputs cannot be written.
    static func prepare(asset: URL, languageModel: URL, vocabulary: URL?, ignoresCache: Bool) throws {
        if !ignoresCache, isUpToDate(languageModel, comparedTo: asset),
           vocabulary.map({ isUpToDate($0, comparedTo: asset) }) ?? true {
            return
        }
        let training = try CustomLanguageModelFile.readTrainingData(at: asset)
        let terms = usableTerms(training)
        let phrases = rankedPhrases(training.phraseCounts)
        let values = Array(training.templateValues.prefix(CustomLanguageModelFile.phraseLimit))
        guard !phrases.isEmpty || !values.isEmpty || !terms.isEmpty else {
            let symbols = training.locale.map { SFCustomLanguageModelData.supportedPhonemes(locale: Locale(identifier: $0)) } ?? []
            throw CustomLanguageModelFile.malformed(asset, "it holds no phrases, and every custom pronunciation uses "
                + "X-SAMPA symbols unsupported in \(training.locale ?? "its locale") (supported: "
                + (symbols.isEmpty ? "none" : symbols.joined(separator: " ")) + ")")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var model = CustomLanguageModelFile.Prepared(format: CustomLanguageModelFile.Prepared.modelFormat)
        model.locale = training.locale
        model.identifier = training.identifier
        model.version = training.version
        model.phrases = phrases
        model.values = values
        for url in [languageModel] + (vocabulary.map { [$0] } ?? []) {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        try encoder.encode(model).write(to: languageModel, options: .atomic)
        if let vocabulary {
            var words = model
            words.format = CustomLanguageModelFile.Prepared.vocabularyFormat
            words.phrases = nil
            words.values = nil
            words.terms = terms
            try encoder.encode(words).write(to: vocabulary, options: .atomic)
        }
    }

    /// The terms with their supported pronunciations; a term whose
    /// pronunciations are all unsupported is dropped (Apple ignores such
    /// pronunciations). Without a locale every pronunciation is kept.
    static func usableTerms(_ training: CustomLanguageModelFile) -> [CustomLanguageModelFile.Pronunciation] {
        var seen: Set<String> = []
        return training.customPronunciations.compactMap { term in
            let grapheme = term.grapheme.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !grapheme.isEmpty else { return nil }
            var phonemes = term.phonemes
            if let identifier = training.locale {
                let locale = Locale(identifier: identifier)
                phonemes = phonemes.filter { PhonemeInventory.unsupportedSymbols(in: $0, locale: locale).isEmpty }
                if phonemes.isEmpty && !term.phonemes.isEmpty { return nil }
            }
            guard seen.insert(grapheme.lowercased()).inserted else { return nil }
            return CustomLanguageModelFile.Pronunciation(grapheme: grapheme, phonemes: phonemes)
        }
    }

    /// Up to `phraseLimit` phrases, chosen greedily by count times the share
    /// of their words not yet covered by the phrases chosen before, so that
    /// the thousands of near-identical phrases a template generates do not
    /// crowd out the rest; ties by count, then alphabetically.
    static func rankedPhrases(_ counts: [CustomLanguageModelFile.PhraseCount]) -> [CustomLanguageModelFile.PhraseCount] {
        var totals: [String: Int] = [:]
        for entry in counts {
            let phrase = entry.phrase.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !phrase.isEmpty else { continue }
            totals[phrase, default: 0] &+= max(1, entry.count)
        }
        var candidates = totals.map { (phrase: $0.key, count: $0.value, words: words(of: $0.key)) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.phrase < $1.phrase }
        var covered: Set<String> = []
        var chosen: [CustomLanguageModelFile.PhraseCount] = []
        while !candidates.isEmpty, chosen.count < CustomLanguageModelFile.phraseLimit {
            var best = 0
            var bestScore = -1.0
            for (index, candidate) in candidates.enumerated() {
                let fresh = candidate.words.isEmpty ? 1 : candidate.words.subtracting(covered).count
                let score = Double(candidate.count) * Double(fresh) / Double(max(1, candidate.words.count))
                if score > bestScore { best = index; bestScore = score }  // first (highest count) wins ties
            }
            let pick = candidates.remove(at: best)
            covered.formUnion(pick.words)
            chosen.append(CustomLanguageModelFile.PhraseCount(phrase: pick.phrase, count: pick.count))
        }
        return chosen
    }

    /// Lower-cased words of `phrase`, punctuation stripped.
    private static func words(of phrase: String) -> Set<String> {
        Set(phrase.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.map(String.init))
    }

    private static func isUpToDate(_ output: URL, comparedTo input: URL) -> Bool {
        let manager = FileManager.default
        guard let outputDate = (try? manager.attributesOfItem(atPath: output.path))?[.modificationDate] as? Date,
              let inputDate = (try? manager.attributesOfItem(atPath: input.path))?[.modificationDate] as? Date else {
            return false
        }
        return outputDate >= inputDate
    }
}
