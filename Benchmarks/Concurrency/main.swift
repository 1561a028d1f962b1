// SpeechConcurrency: many recognitions at once through one face, against the
// same recognitions one after another, as an app that transcribes a batch of
// recordings writes them (issue 16: "8 concurrent legacy URL tasks take 2.8x
// longer than running them one after another").
//
//   SpeechConcurrency legacy|modern FILE... [--rounds N] [--order both|concurrent|sequential]
//
// Each round runs every file one after another, then all at once (or the
// reverse on odd rounds, so both see the same machine), and prints wall and
// process CPU seconds for each; transcripts must be the same both ways.
// The table goes to stdout (`--format json` is not offered: this is a benchmark).

import Foundation
import Speech

let usage = "Usage: SpeechConcurrency legacy|modern FILE... [--rounds N]\n"

func fail(_ message: String, status: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var rounds = 1
if let index = arguments.firstIndex(of: "--rounds") {
    guard index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 else {
        fail("--rounds takes a positive whole number\n" + usage, status: 64)
    }
    rounds = value
    arguments.removeSubrange(index...index + 1)
}
guard arguments.count >= 2, let face = Face(rawValue: arguments[0]) else { fail(usage, status: 64) }
let files = arguments.dropFirst().map { URL(fileURLWithPath: $0) }
for file in files where !FileManager.default.isReadableFile(atPath: file.path) {
    fail("cannot read \(file.path)")
}

do {
    print("face\tround\torder\ttasks\twall_s\tcpu_s")
    var reference: [String]?
    for round in 1...rounds {
        let orders: [Order] = round % 2 == 1 ? [.sequential, .concurrent] : [.concurrent, .sequential]
        for order in orders {
            let run = try await Measured.run { try await face.transcribe(files, order) }
            print("\(face.rawValue)\t\(round)\t\(order)\t\(files.count)\t"
                  + String(format: "%.2f\t%.2f", run.wallSeconds, run.cpuSeconds))
            if let reference, reference != run.value {
                for (index, (a, b)) in zip(reference, run.value).enumerated() where a != b {
                    FileHandle.standardError.write(Data("transcripts differ for \(files[index].lastPathComponent):\n  \(a)\n  \(b)\n".utf8))
                }
                fail("the \(order) run's transcripts differ from the first run's")
            }
            reference = run.value
        }
    }
} catch {
    fail("\(error)")
}
