/// A minimum-edit alignment of a hypothesis against a reference: the
/// Levenshtein distance with its path, so that each error can be shown
/// (`speech compare`) as well as counted (WER, CER).
///
/// Among alignments of equal cost the one chosen prefers, walking back from
/// the end, a match or substitution, then a deletion, then an insertion; the
/// result is deterministic.
///
/// - Complexity: O(n·m) time, O(n·m) bytes of path memory, for a reference of
///   n and a hypothesis of m units.
public struct Alignment<Unit: Hashable & Sendable>: Hashable, Sendable {
    /// Every position, in order.
    public var pairs: [AlignedPair<Unit>]

    /// Aligns `hypothesis` against `reference`.
    public init(reference: [Unit], hypothesis: [Unit]) {
        pairs = Self.align(reference, hypothesis)
    }

    /// The substitution, deletion and insertion counts of this alignment.
    public var counts: ErrorCounts {
        var counts = ErrorCounts()
        for pair in pairs {
            switch pair.operation {
            case .match: break
            case .substitution: counts.substitutions += 1
            case .deletion: counts.deletions += 1
            case .insertion: counts.insertions += 1
            }
            if pair.reference != nil { counts.referenceCount += 1 }
        }
        return counts
    }

    /// The step that led to a cell of the cost table.
    private enum Step: UInt8 { case diagonal, up, left }

    private static func align(_ reference: [Unit], _ hypothesis: [Unit]) -> [AlignedPair<Unit>] {
        let rows = reference.count, columns = hypothesis.count
        let width = columns + 1
        // previous/current: costs of two rows; steps: the whole path table.
        var previous = Array(0...columns)
        var current = [Int](repeating: 0, count: width)
        var steps = [Step](repeating: .left, count: (rows + 1) * width)
        for row in stride(from: 1, through: rows, by: 1) {
            current[0] = row
            steps[row * width] = .up
            for column in stride(from: 1, through: columns, by: 1) {
                let same = reference[row - 1] == hypothesis[column - 1]
                let diagonal = previous[column - 1] + (same ? 0 : 1)
                let up = previous[column] + 1
                let left = current[column - 1] + 1
                if diagonal <= up, diagonal <= left {
                    current[column] = diagonal
                    steps[row * width + column] = .diagonal
                } else if up <= left {
                    current[column] = up
                    steps[row * width + column] = .up
                } else {
                    current[column] = left
                    steps[row * width + column] = .left
                }
            }
            swap(&previous, &current)
        }
        var pairs: [AlignedPair<Unit>] = []
        pairs.reserveCapacity(max(rows, columns))
        var row = rows, column = columns
        while row > 0 || column > 0 {
            let step: Step = row == 0 ? .left : (column == 0 ? .up : steps[row * width + column])
            switch step {
            case .diagonal:
                let referenceUnit = reference[row - 1], hypothesisUnit = hypothesis[column - 1]
                pairs.append(AlignedPair(operation: referenceUnit == hypothesisUnit ? .match : .substitution,
                                         reference: referenceUnit, hypothesis: hypothesisUnit))
                row -= 1
                column -= 1
            case .up:
                pairs.append(AlignedPair(operation: .deletion, reference: reference[row - 1], hypothesis: nil))
                row -= 1
            case .left:
                pairs.append(AlignedPair(operation: .insertion, reference: nil, hypothesis: hypothesis[column - 1]))
                column -= 1
            }
        }
        return pairs.reversed()
    }
}
