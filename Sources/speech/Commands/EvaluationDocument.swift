import SpeechEvaluation

/// The JSON shape of `speech eval --format json`.
struct EvaluationDocument: Encodable, Sendable {
    struct ClipDocument: Encodable, Sendable {
        var id: String
        var set: String
        var language: String
        var reference: String
        var hypothesis: String
        var unit: ScoringUnit
        var counts: ErrorCounts
        var rate: Double
        var processingSeconds: Double?
    }

    struct SummaryDocument: Encodable, Sendable {
        var name: String
        var metric: String
        var clips: Int
        var counts: ErrorCounts
        var rate: Double
        var audioSeconds: Double
        var realTimeFactor: Double?

        init(_ summary: SetSummary) {
            name = summary.name
            metric = summary.unit.rateName
            clips = summary.clipCount
            counts = summary.counts
            rate = summary.rate
            audioSeconds = summary.audioSeconds
            realTimeFactor = summary.realTimeFactor
        }
    }

    var modelLoadSeconds: Double?
    var sets: [SummaryDocument]
    var english: SummaryDocument?
    var totals: [SummaryDocument]
    var clips: [ClipDocument]

    init(report: EvaluationReport, modelLoadSeconds: Double?) {
        self.modelLoadSeconds = modelLoadSeconds
        sets = report.sets.map(SummaryDocument.init)
        english = report.englishTotal.map(SummaryDocument.init)
        totals = ScoringUnit.allCases.compactMap { report.total(of: $0) }.map(SummaryDocument.init)
        clips = report.clips.map { clip in
            ClipDocument(id: clip.entry.id, set: clip.entry.set, language: clip.entry.languageTag,
                         reference: clip.entry.referenceText, hypothesis: clip.hypothesis,
                         unit: clip.score.unit, counts: clip.score.counts, rate: clip.score.counts.rate,
                         processingSeconds: clip.processingSeconds)
        }
    }
}
