// ObservableRecognizer: an @Observable recognizer model driven from the
// command line; withObservationTracking prints every change a SwiftUI view
// would redraw for.
//
//   ObservableRecognizer legacy|modern <audio-file>

import Foundation
import Speech

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, ["legacy", "modern"].contains(arguments[0]) else {
    FileHandle.standardError.write(Data("Usage: ObservableRecognizer legacy|modern <audio-file>\n".utf8))
    exit(64)
}

/// Prints the model's state each time an observed property changes.
enum ModelObserver {
    @MainActor
    static func observe(_ model: SpeechRecognizerModel) {
        withObservationTracking {
            _ = model.state
            _ = model.transcript
        } onChange: {
            Task { @MainActor in
                print("OBSERVED: \(model.state) \(model.transcript)")
                observe(model)
            }
        }
    }
}

let model = SpeechRecognizerModel()
ModelObserver.observe(model)
let url = URL(fileURLWithPath: arguments[1])
if arguments[0] == "legacy" {
    await model.transcribeLegacy(url)
} else {
    await model.transcribeModern(url)
}
// Let the last change notification print before reporting.
try? await Task.sleep(for: .milliseconds(100))
switch model.state {
case .finished:
    print("TRANSCRIPT: \(model.transcript)")
    print("WORDS: \(model.words.count)")
case .failed(let message):
    FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
    exit(1)
case .idle, .recognizing:
    FileHandle.standardError.write(Data("Error: recognition did not finish\n".utf8))
    exit(1)
}
