import Foundation
import SpeechEngine
import SpeechEvaluation

/// `speech eval --stream`: each clip goes through the streaming recognizer in
/// 100 ms chunks (as fast as it takes them, or with `--live-passes` each once
/// the last is consumed), and through batch transcription, so the
/// committed stream and the batch transcript are scored on the same clips.
struct StreamingEvaluation {
    /// The model for batch transcription.
    var accurate: Transcriber
    /// The model for the stream's final results (``ComputeType/live``, as the faces stream).
    var live: Transcriber
    /// An English-only model for volatile passes on English clips; other
    /// languages use `accurate` for those passes too.
    var fastEnglish: Transcriber?
    var decoding: DecodingArguments
    /// `.stepped` (`--live-passes`) runs every pass a live stream runs; `.fast` only the finals.
    var pacing: StreamFeeder.Pacing = .fast

    /// One clip scored both ways.
    struct ClipResult: Sendable {
        var stream: EvaluatedClip
        var batch: EvaluatedClip
    }

    /// Streams, then batch-transcribes, one clip. Processing times leave out
    /// audio decoding, which both share.
    func evaluate(_ entry: ManifestEntry) async throws -> ClipResult {
        let samples = try AudioDecoder.decode(contentsOf: entry.audioURL)
        let options = decoding.options(language: entry.language)
        let recognizer = StreamingRecognizer(accurate: live, fast: entry.language == "en" ? fastEnglish : nil,
                                             options: decoding.streamingOptions(language: entry.language))
        let outcome = try await StreamFeeder(pacing: pacing).run(samples, through: recognizer)
        let clock = ContinuousClock()
        let batchStart = clock.now
        let batchText = try accurate.transcribe(samples: samples, options: options).text
        let batchSeconds = (clock.now - batchStart).seconds
        return ClipResult(
            stream: EvalCommand.scoredClip(entry, hypothesis: outcome.committedText, sampleCount: samples.count,
                                           processingSeconds: outcome.wallSeconds),
            batch: EvalCommand.scoredClip(entry, hypothesis: batchText, sampleCount: samples.count,
                                          processingSeconds: batchSeconds))
    }
}

/// Streaming and batch scores of the same clips, set by set, so "the stream
/// is within a point of batch" reads off one line.
struct StreamingComparison: Sendable {
    var stream: EvaluationReport
    var batch: EvaluationReport

    /// One set (or total) scored both ways.
    struct Row: Encodable, Sendable, Hashable {
        var name: String
        var metric: String
        var clips: Int
        /// Reference words (characters for CER).
        var units: Int
        var streamRate: Double
        var batchRate: Double
        /// Stream minus batch, in percentage points.
        var differencePoints: Double
        var streamRealTimeFactor: Double?
        var batchRealTimeFactor: Double?

        init(stream: SetSummary, batch: SetSummary) {
            name = stream.name
            metric = stream.unit.rateName
            clips = stream.clipCount
            units = stream.counts.referenceCount
            streamRate = stream.rate
            batchRate = batch.rate
            differencePoints = (stream.rate - batch.rate) * 100
            streamRealTimeFactor = stream.realTimeFactor
            batchRealTimeFactor = batch.realTimeFactor
        }
    }

    init(clips: [StreamingEvaluation.ClipResult], excludedFromEnglishTotal: Set<String>) {
        stream = EvaluationReport(clips: clips.map(\.stream), excludedFromEnglishTotal: excludedFromEnglishTotal)
        batch = EvaluationReport(clips: clips.map(\.batch), excludedFromEnglishTotal: excludedFromEnglishTotal)
    }

    /// Both reports hold the same clips, so their summaries pair up by name and unit.
    private static func pair(_ stream: [SetSummary], _ batch: [SetSummary]) -> [Row] {
        stream.compactMap { summary in
            batch.first { $0.name == summary.name && $0.unit == summary.unit }.map { Row(stream: summary, batch: $0) }
        }
    }

    var sets: [Row] { Self.pair(stream.sets, batch.sets) }

    var english: Row? {
        guard let stream = stream.englishTotal, let batch = batch.englishTotal else { return nil }
        return Row(stream: stream, batch: batch)
    }

    var totals: [Row] {
        ScoringUnit.allCases.compactMap { unit in
            guard let stream = stream.total(of: unit), let batch = batch.total(of: unit) else { return nil }
            return Row(stream: stream, batch: batch)
        }
    }

    /// ```
    /// set                       metric  clips   units   stream    batch    diff  RTF str  RTF bat
    /// librispeech-dev-clean     WER         5     201    2.49%    1.99%   +0.50    0.158    0.101
    /// ```
    var table: String {
        var lines = [Self.headerRow]
        lines += sets.map(Self.line)
        let totals = [english].compactMap { $0 } + self.totals
        if !totals.isEmpty {
            lines.append(String(repeating: "-", count: Self.headerRow.count))
            lines += totals.map(Self.line)
        }
        lines.append("diff: stream minus batch, in percentage points; RTF: processing time over audio time.")
        return lines.joined(separator: "\n") + "\n"
    }

    static let headerRow = "set".padding(toLength: 26, withPad: " ", startingAt: 0) + "metric"
        + ["clips", "units"].map { leftPad($0, 7) }.joined()
        + ["stream", "batch", "diff", "RTF str", "RTF bat"].map { leftPad($0, 9) }.joined()

    static func line(_ row: Row) -> String {
        let name = row.name.count > 25 ? String(row.name.prefix(24)) + "…" : row.name
        let rtf = [row.streamRealTimeFactor, row.batchRealTimeFactor]
            .map { leftPad($0.map { String(format: "%.3f", $0) } ?? "-", 9) }.joined()
        return name.padding(toLength: 26, withPad: " ", startingAt: 0)
            + row.metric.padding(toLength: 6, withPad: " ", startingAt: 0)
            + leftPad(String(row.clips), 7) + leftPad(String(row.units), 7)
            + leftPad(String(format: "%.2f%%", row.streamRate * 100), 9)
            + leftPad(String(format: "%.2f%%", row.batchRate * 100), 9)
            + leftPad(String(format: "%+.2f", row.differencePoints), 9) + rtf
    }

    private static func leftPad(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}

/// The JSON shape of `speech eval --stream --format json`: the comparison
/// rows, then each side in the shape of plain `speech eval`.
struct StreamingEvaluationDocument: Encodable, Sendable {
    var mode = "stream"
    var modelLoadSeconds: Double?
    /// The model of volatile passes on English clips, nil when the accurate model does them.
    var volatileModel: String?
    var sets: [StreamingComparison.Row]
    var english: StreamingComparison.Row?
    var totals: [StreamingComparison.Row]
    var stream: EvaluationDocument
    var batch: EvaluationDocument

    init(comparison: StreamingComparison, modelLoadSeconds: Double?, volatileModel: String?) {
        self.modelLoadSeconds = modelLoadSeconds
        self.volatileModel = volatileModel
        sets = comparison.sets
        english = comparison.english
        totals = comparison.totals
        stream = EvaluationDocument(report: comparison.stream, modelLoadSeconds: nil)
        batch = EvaluationDocument(report: comparison.batch, modelLoadSeconds: nil)
    }
}
