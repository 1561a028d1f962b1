/// One position of an ``Alignment``: a reference unit, a hypothesis unit, or
/// both.
public struct AlignedPair<Unit: Hashable & Sendable>: Hashable, Sendable {
    /// What happened at this position.
    public var operation: EditOperation
    /// The reference unit; nil for an insertion.
    public var reference: Unit?
    /// The hypothesis unit; nil for a deletion.
    public var hypothesis: Unit?

    /// Creates a pair.
    public init(operation: EditOperation, reference: Unit?, hypothesis: Unit?) {
        self.operation = operation
        self.reference = reference
        self.hypothesis = hypothesis
    }
}
