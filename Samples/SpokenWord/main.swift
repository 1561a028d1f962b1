// SpokenWord: Apple's custom-language-model sample as two commands.
//
//   SpokenWord datagenerator <CustomLMData.bin>
//   SpokenWord recognize <CustomLMData.bin> <audio-file>... [--compare]
//
// `recognize` prepares the model from the exported data and prints each
// file's transcript with the model (and, with --compare, without it), and
// which custom terms it found.

import Foundation
import Speech

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "Usage: SpokenWord datagenerator <CustomLMData.bin>\n       SpokenWord recognize <CustomLMData.bin> <audio-file>... [--compare]\n"

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data(message.utf8))
    exit(status)
}

switch arguments.first {
case "datagenerator" where arguments.count == 2:
    do {
        try await DataGenerator.export(to: URL(filePath: arguments[1]))
    } catch {
        fail("Error: \(error.localizedDescription)\n", status: 1)
    }
case "recognize" where arguments.count >= 3:
    let compare = arguments.contains("--compare")
    let files = arguments.dropFirst(2).filter { $0 != "--compare" }
    let recognizer = SpeechRecognizer()
    defer { recognizer.removePreparedModel() }
    do {
        try await recognizer.prepareCustomLanguageModel(assetUrl: URL(filePath: arguments[1]))
        let terms = ["Linnell", "Birket Foster", "Whittemore", "Philip Steels"]
        for file in files {
            let url = URL(filePath: file)
            if compare { print("PLAIN \(url.lastPathComponent): \(try await recognizer.transcribe(url, customized: false))") }
            let text = try await recognizer.transcribe(url, customized: true)
            print("TRANSCRIPT \(url.lastPathComponent): \(text)")
            for term in terms where text.localizedCaseInsensitiveContains(term) { print("FOUND: \(term)") }
        }
    } catch {
        recognizer.removePreparedModel()
        fail("Error: \(error.localizedDescription)\n", status: 1)
    }
default:
    fail(usage, status: 64)
}
