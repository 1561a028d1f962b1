/// Scores of an evaluation run, per set and in total.
///
/// Each set gets one summary per scoring unit it uses, so a set that mixes
/// Swedish (WER) and Japanese (CER) clips reports both rates separately
/// rather than adding words to characters. The English total covers every
/// English clip outside `excludedFromEnglishTotal` (for instance digit-string
/// sets whose references are written in words).
public struct EvaluationReport: Hashable, Sendable {
    /// Every clip, in manifest order.
    public var clips: [EvaluatedClip]
    /// Sets left out of ``englishTotal``.
    public var excludedFromEnglishTotal: Set<String>

    /// Creates a report over `clips`.
    public init(clips: [EvaluatedClip], excludedFromEnglishTotal: Set<String> = []) {
        self.clips = clips
        self.excludedFromEnglishTotal = excludedFromEnglishTotal
    }

    /// One summary per (set, unit), in order of first appearance.
    public var sets: [SetSummary] {
        var order: [String] = []
        var groups: [String: [EvaluatedClip]] = [:]
        for clip in clips {
            let key = "\(clip.entry.set)\t\(clip.score.unit.rawValue)"
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(clip)
        }
        return order.map { key in
            let group = groups[key] ?? []
            return SetSummary(name: group[0].entry.set, unit: group[0].score.unit, clips: group)
        }
    }

    /// All English clips outside the excluded sets, or nil if there are none.
    public var englishTotal: SetSummary? {
        let english = clips.filter {
            $0.entry.language == "en" && !excludedFromEnglishTotal.contains($0.entry.set)
        }
        return english.isEmpty ? nil : SetSummary(name: "english", unit: .words, clips: english)
    }

    /// All clips scored by `unit`, or nil if there are none.
    public func total(of unit: ScoringUnit) -> SetSummary? {
        let matching = clips.filter { $0.score.unit == unit }
        return matching.isEmpty ? nil : SetSummary(name: "all (\(unit.rateName))", unit: unit, clips: matching)
    }
}
