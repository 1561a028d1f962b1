import Foundation
import SpeechEngine

/// OpenBench-style word latencies of a realtime stream: for each reference
/// word, the wall time from the moment its audio had been fed (its end time)
/// to the first result that showed it — any result for the *interim*
/// latency, a final one for the *confirmed* latency.
///
/// The reference words and their times come from the batch path's word
/// alignment of the same audio (no hand-timed reference is at hand). A
/// result shows a reference word when it holds a word spelled the same
/// (case and punctuation ignored) whose end lies within `toleranceSeconds`
/// of the reference's; reference words no result shows count as missed.
/// In realtime pacing audio time t was handed over at wall time t − 0.1 s
/// (a chunk goes out when its 100 ms begin), so figures are conservative by
/// at most 0.1 s.
struct StreamingWordLatency: Sendable, Encodable {
    /// Latencies, seconds, one per reference word shown.
    var interim: [Double]
    var confirmed: [Double]
    /// Reference words.
    var referenceCount: Int
    /// Reference words never shown in a final result.
    var missedConfirmed: Int

    static let toleranceSeconds = 1.0

    init(reference: [WordTiming], results: [StreamFeeder.TimedResult]) {
        referenceCount = reference.count
        interim = []
        confirmed = []
        missedConfirmed = 0
        // Each result's words once, spoken form computed once.
        let spoken = results.map { result in
            result.hypothesis.words.map { (SpokenForm.spoken($0.word), $0.endSeconds) }
        }
        for word in reference {
            let form = SpokenForm.spoken(word.word)
            guard !form.isEmpty else { continue }
            func shows(_ index: Int) -> Bool {
                spoken[index].contains { $0.0 == form && abs($0.1 - word.endSeconds) <= Self.toleranceSeconds }
            }
            if let first = results.indices.first(where: shows) {
                interim.append(max(0, results[first].wallSeconds - word.endSeconds))
            }
            if let first = results.indices.first(where: { results[$0].isFinal && shows($0) }) {
                confirmed.append(max(0, results[first].wallSeconds - word.endSeconds))
            } else {
                missedConfirmed += 1
            }
        }
    }

    /// The value below which `fraction` of `values` lie (nearest rank).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
    }

    /// "median 0.61 s, p90 1.02 s (78 words)".
    static func summary(_ values: [Double]) -> String {
        guard let median = percentile(values, 0.5), let p90 = percentile(values, 0.9) else { return "n/a" }
        return String(format: "median %.3f s, p90 %.3f s (%d words)", median, p90, values.count)
    }
}

/// Words compared the way the benchmark's latency matching needs: lowercased
/// letters, digits and apostrophes.
enum SpokenForm {
    static func spoken(_ word: String) -> String {
        String(word.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == "'" || $0 == "\u{2019}"
        }.map(Character.init))
    }
}
