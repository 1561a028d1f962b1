// SpeechSoak: an hour of live audio through one Speech face, with the
// process's memory, threads and open files sampled every few minutes of
// audio (Benchmarks/Soak/run.sh builds the hour and runs both faces).
//
//   SpeechSoak legacy|modern <audio file> [--speed X] [--sample-every SECONDS] [--max-lead SECONDS]
//
// --speed: multiple of real time the buffers arrive at (default 1, live).
// --sample-every: seconds of audio between samples (default 300).
// --max-lead: wait while the audio fed is this far ahead of the face's
//   latest result (default: never wait, as a live source does not).
// The table goes to stdout; each sample is also printed to stderr as taken.

import Foundation

let usage = "Usage: SpeechSoak legacy|modern <audio file> [--speed X] [--sample-every SECONDS] [--max-lead SECONDS]\n"

func parse(_ arguments: [String]) -> (face: String, audio: PacedAudio)? {
    guard arguments.count >= 2, ["legacy", "modern"].contains(arguments[0]) else { return nil }
    var speed = 1.0
    var every = 300.0
    var lead: Double?
    var rest = arguments.dropFirst(2)
    while let option = rest.popFirst() {
        guard let value = rest.popFirst().flatMap(Double.init), value > 0 else { return nil }
        switch option {
        case "--speed": speed = value
        case "--sample-every": every = value
        case "--max-lead": lead = value
        default: return nil
        }
    }
    let url = URL(fileURLWithPath: arguments[1])
    return (arguments[0], PacedAudio(url: url, speed: speed, sampleEverySeconds: every, maxLeadSeconds: lead))
}

guard let (face, audio) = parse(Array(CommandLine.arguments.dropFirst())) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
guard FileManager.default.isReadableFile(atPath: audio.url.path) else {
    FileHandle.standardError.write(Data("Error: cannot read \(audio.url.path); run Benchmarks/Soak/run.sh to build it.\n".utf8))
    exit(1)
}
do {
    let report = face == "legacy" ? try await LegacySoak.run(audio: audio) : try await ModernSoak.run(audio: audio)
    print(report.text)
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
