/// The candidate merges of one piece during byte-pair encoding, lowest rank
/// first and, among equal ranks, leftmost first: a binary min-heap.
///
/// Candidates are not removed when a neighbouring merge makes them stale;
/// the encoder checks each popped candidate against the current symbols
/// instead (lazy deletion), which keeps every operation O(log n).
struct MergeQueue {
    /// One adjacent pair that a merge rule applies to.
    struct Candidate {
        /// The rule's rank: lower merges first.
        var rank: Int32
        /// The index of the pair's left symbol in the piece's original
        /// (one-token-per-byte) symbol list; orders equal ranks left to right.
        var position: Int32
        /// The tokens the pair held when queued, to detect stale candidates.
        var left: Int32
        var right: Int32
        /// The token the merge makes.
        var merged: Int32

        /// Whether this candidate comes out before `other`.
        func precedes(_ other: Candidate) -> Bool {
            rank != other.rank ? rank < other.rank : position < other.position
        }
    }

    private var heap: [Candidate] = []

    /// An empty queue with room for `capacity` candidates.
    init(capacity: Int) {
        heap.reserveCapacity(capacity)
    }

    /// Whether no candidates are left.
    var isEmpty: Bool { heap.isEmpty }

    /// Adds a candidate.
    /// - Complexity: O(log n).
    mutating func push(_ candidate: Candidate) {
        heap.append(candidate)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the first candidate, or `nil` when empty.
    /// - Complexity: O(log n).
    mutating func pop() -> Candidate? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
