/// Minimum, median and mean of repeated wall-time measurements.
struct TimingSummary: Sendable, Hashable, Encodable {
    /// Every run's seconds, in run order.
    var runs: [Double]

    /// The fastest run (the least disturbed by other work on the machine).
    var minimum: Double { runs.min() ?? 0 }

    /// The middle run; the mean of the two middle runs for an even count.
    var median: Double {
        let sorted = runs.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The arithmetic mean.
    var mean: Double { runs.isEmpty ? 0 : runs.reduce(0, +) / Double(runs.count) }

    private enum CodingKeys: String, CodingKey { case runs, minimum, median, mean }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runs, forKey: .runs)
        try container.encode(minimum, forKey: .minimum)
        try container.encode(median, forKey: .median)
        try container.encode(mean, forKey: .mean)
    }
}
