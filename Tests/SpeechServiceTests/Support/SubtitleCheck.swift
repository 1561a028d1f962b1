import Foundation

/// Structural checks of SubRip and WebVTT text: numbering, `-->` lines with
/// well-formed timestamps, start ≤ end, cues in time order, the WEBVTT header.
enum SubtitleCheck {
    struct Cue {
        var start: Double
        var end: Double
        var text: String
    }

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    /// SubRip cues: `N`, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, text, blank line.
    static func srt(_ text: String) throws -> [Cue] {
        let blocks = text.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .newlines) }.filter { !$0.isEmpty }
        guard !blocks.isEmpty else { throw Malformed(description: "no cues") }
        var cues: [Cue] = []
        for (index, block) in blocks.enumerated() {
            let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count >= 3, lines[0] == String(index + 1) else {
                throw Malformed(description: "cue \(index + 1) is not numbered \(index + 1): \(block)")
            }
            cues.append(try cue(timing: lines[1], text: lines[2...].joined(separator: "\n"), separator: ","))
        }
        try checkOrder(cues)
        return cues
    }

    /// WebVTT cues after the `WEBVTT` header: timing line, text, blank line.
    static func vtt(_ text: String) throws -> [Cue] {
        guard text.hasPrefix("WEBVTT\n\n") else { throw Malformed(description: "no WEBVTT header") }
        let blocks = text.dropFirst(8).components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .newlines) }
            .filter { !$0.isEmpty }
        let cues = try blocks.map { block in
            let lines = block.split(separator: "\n").map(String.init)
            guard lines.count >= 2 else { throw Malformed(description: "cue without text: \(block)") }
            return try cue(timing: lines[0], text: lines[1...].joined(separator: "\n"), separator: ".")
        }
        try checkOrder(cues)
        return cues
    }

    private static func cue(timing: String, text: String, separator: Character) throws -> Cue {
        let parts = timing.components(separatedBy: " --> ")
        guard parts.count == 2, let start = seconds(parts[0], separator), let end = seconds(parts[1], separator) else {
            throw Malformed(description: "bad timing line '\(timing)'")
        }
        guard start <= end, !text.isEmpty else { throw Malformed(description: "bad cue \(timing) '\(text)'") }
        return Cue(start: start, end: end, text: text)
    }

    private static func checkOrder(_ cues: [Cue]) throws {
        for (previous, next) in zip(cues, cues.dropFirst()) where next.start < previous.start {
            throw Malformed(description: "cues out of order: \(previous.start) then \(next.start)")
        }
    }

    /// `HH:MM:SS<sep>mmm` in seconds, nil when malformed.
    static func seconds(_ text: String, _ separator: Character) -> Double? {
        let pieces = text.split(separator: ":")
        guard pieces.count == 3, pieces[0].count == 2, pieces[1].count == 2 else { return nil }
        let last = pieces[2].split(separator: separator)
        guard last.count == 2, last[0].count == 2, last[1].count == 3,
              let hours = Int(pieces[0]), let minutes = Int(pieces[1]), minutes < 60,
              let wholeSeconds = Int(last[0]), wholeSeconds < 60, let milliseconds = Int(last[1]) else { return nil }
        return Double(hours * 3600 + minutes * 60 + wholeSeconds) + Double(milliseconds) / 1000
    }
}
