// The custom-language-model benchmark: rare terms found with and without an
// SFCustomLanguageModelData model (and, for comparison, with the same terms
// as contextualStrings), through the legacy face exactly as an app uses it.
//
//   CustomLanguageModelBenchmark <benchmark-dir> <work-dir> <corpus-dir>
//
// <benchmark-dir> holds terms.tsv, templates.tsv, sentences.tsv,
// corpus-with-terms.txt and corpus-control.txt; <work-dir> the espeak-ng
// clips (synth-NN.wav) Benchmarks/custom_lm.sh makes. Writes transcripts.tsv
// and prints the table Benchmarks/RESULTS.md records.

import Foundation
import Speech
import SpeechEvaluation

struct Term { let grapheme: String, className: String, phonemes: String }
struct Clip { let id: String, url: URL, reference: String, isControl: Bool }
enum Mode: String, CaseIterable { case plain, contextualStrings = "contextual strings", customModel = "custom model" }

func rows(_ url: URL) throws -> [[String]] {
    try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline)
        .filter { !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
}

/// Whether `term` occurs in `text` as whole words (case-insensitive; a
/// trailing possessive or plural `s` still counts).
func contains(_ text: String, _ term: String) -> Bool {
    let words = text.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.map(String.init)
    let termWords = term.lowercased().split(separator: " ").map(String.init)
    guard words.count >= termWords.count else { return false }
    for start in 0...(words.count - termWords.count) {
        let window = words[start..<start + termWords.count]
        if zip(window, termWords).allSatisfy({ $0 == $1 || $0 == $1 + "'s" || $0 == $1 + "s" || $0 == $1 + "'" }) {
            return true
        }
    }
    return false
}

/// The training data: one template class per term class, the benchmark's
/// templates over them, and every term with its X-SAMPA pronunciation.
func trainingData(terms: [Term], templates: [(String, Int)]) -> SFCustomLanguageModelData {
    var classes: [String: [String]] = [:]
    for term in terms { classes[term.className, default: []].append(term.grapheme) }
    return SFCustomLanguageModelData(locale: Locale(identifier: "en_US"), identifier: "com.example.benchmark",
                                     version: "1.0") {
        SFCustomLanguageModelData.PhraseCountsFromTemplates(classes: classes) {
            for (body, count) in templates {
                SFCustomLanguageModelData.TemplatePhraseCountGenerator.Template(body, count: count)
            }
        }
        for term in terms {
            SFCustomLanguageModelData.CustomPronunciation(grapheme: term.grapheme, phonemes: [term.phonemes])
        }
    }
}

func recognize(_ clip: Clip, mode: Mode, recognizer: SFSpeechRecognizer, terms: [Term],
               model: SFSpeechLanguageModel.Configuration) async throws -> String {
    let request = SFSpeechURLRecognitionRequest(url: clip.url)
    request.requiresOnDeviceRecognition = true
    request.shouldReportPartialResults = false
    switch mode {
    case .plain: break
    case .contextualStrings: request.contextualStrings = terms.map(\.grapheme)
    case .customModel: request.customizedLanguageModel = model
    }
    return try await withCheckedThrowingContinuation { continuation in
        recognizer.recognitionTask(with: request) { result, error in
            if let error { continuation.resume(throwing: error) }
            else if let result, result.isFinal { continuation.resume(returning: result.bestTranscription.formattedString) }
        }
    }
}

/// Prints a line unbuffered, so progress shows as recognition goes.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

struct Tally {
    var expected = 0, found = 0, falseTerms = 0, errors = ErrorCounts(), seconds = 0.0
}

let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("Usage: CustomLanguageModelBenchmark <benchmark-dir> <work-dir> <corpus-dir>\n".utf8))
    exit(64)
}
let benchmark = URL(fileURLWithPath: arguments[1])
let work = URL(fileURLWithPath: arguments[2])
let corpus = URL(fileURLWithPath: arguments[3])
do {
    let terms = try rows(benchmark.appendingPathComponent("terms.tsv")).map { Term(grapheme: $0[0], className: $0[1], phonemes: $0[2]) }
    let templates = try rows(benchmark.appendingPathComponent("templates.tsv")).map { ($0[0], Int($0[1]) ?? 1) }
    var manifest: [String: (path: String, reference: String)] = [:]
    for row in try rows(corpus.appendingPathComponent("manifest.tsv")).dropFirst() where row.count >= 8 {
        manifest[row[0]] = (row[4], row[7])
    }
    func corpusClips(_ file: String, control: Bool) throws -> [Clip] {
        try rows(benchmark.appendingPathComponent(file)).map { row in
            guard let entry = manifest[row[0]] else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: row[0]]) }
            return Clip(id: row[0], url: corpus.appendingPathComponent(entry.path), reference: entry.reference, isControl: control)
        }
    }
    let synthetic = try rows(benchmark.appendingPathComponent("sentences.tsv")).map {
        Clip(id: $0[0], url: work.appendingPathComponent("\($0[0]).wav"), reference: $0[1], isControl: false)
    }
    let clips = synthetic + (try corpusClips("corpus-with-terms.txt", control: false))
        + (try corpusClips("corpus-control.txt", control: true))

    // The app's two steps: export the training data, prepare the model.
    let asset = work.appendingPathComponent("CustomLMData.bin")
    let model = SFSpeechLanguageModel.Configuration(languageModel: work.appendingPathComponent("LM"),
                                                    vocabulary: work.appendingPathComponent("Vocab"))
    try await trainingData(terms: terms, templates: templates).export(to: asset)
    try await SFSpeechLanguageModel.prepareCustomLanguageModel(for: asset, clientIdentifier: "com.example.benchmark",
                                                               configuration: model, ignoresCache: true)

    guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")) else { throw CocoaError(.featureUnsupported) }
    recognizer.queue = OperationQueue()
    let scorer = TranscriptScorer()
    var tallies: [String: Tally] = [:]
    var transcripts = "id\tmode\tseconds\treference\ttranscript\n"
    for clip in clips {
        let expected = terms.filter { contains(clip.reference, $0.grapheme) }
        for mode in Mode.allCases {
            let start = Date()
            let text = try await recognize(clip, mode: mode, recognizer: recognizer, terms: terms, model: model)
            let seconds = Date().timeIntervalSince(start)
            let key = "\(clip.isControl ? "control" : "with terms")|\(mode.rawValue)"
            var tally = tallies[key, default: Tally()]
            tally.expected += expected.count
            tally.found += expected.filter { contains(text, $0.grapheme) }.count
            tally.falseTerms += terms.filter { contains(text, $0.grapheme) && !contains(clip.reference, $0.grapheme) }.count
            tally.errors += scorer.score(reference: clip.reference, hypothesis: text, languageTag: "en-US").counts
            tally.seconds += seconds
            tallies[key] = tally
            transcripts += "\(clip.id)\t\(mode.rawValue)\t\(String(format: "%.2f", seconds))\t\(clip.reference)\t\(text)\n"
            say("\(clip.id) [\(mode.rawValue)] \(text)")
        }
    }
    try transcripts.write(to: work.appendingPathComponent("transcripts.tsv"), atomically: true, encoding: .utf8)

    let prepared = try String(contentsOf: model.languageModel, encoding: .utf8)
    say("\nTerms: \(terms.count); prepared model: \(prepared.components(separatedBy: "\"phrase\"").count - 1) phrases")
    say("| Clips | Mode | Terms found | Terms put where none was said | WER | Recognition time |")
    say("|---|---|---|---|---|---|")
    for set in ["with terms", "control"] {
        let count = clips.filter { ($0.isControl ? "control" : "with terms") == set }.count
        for mode in Mode.allCases {
            let tally = tallies["\(set)|\(mode.rawValue)"] ?? Tally()
            let recall = tally.expected == 0 ? "–" : "\(tally.found)/\(tally.expected) (\(String(format: "%.0f", 100 * Double(tally.found) / Double(tally.expected)))%)"
            say("| \(set) (\(count)) | \(mode.rawValue) | \(recall) | \(tally.falseTerms) | "
                + "\(String(format: "%.2f", 100 * tally.errors.rate))% | \(String(format: "%.1f", tally.seconds)) s |")
        }
    }
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
