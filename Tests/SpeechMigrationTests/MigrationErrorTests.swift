import Foundation
import SpeechMigration
import Testing

@Suite struct MigrationErrorTests {
    private struct Described: Error, CustomStringConvertible {
        var description: String { "engine said why" }
    }

    /// What the CLI prints after "Error: ": the message, then the cause's
    /// own message — never an NSError's userInfo dump.
    @Test("the description adds the underlying error's message, not its dump")
    func descriptionNamesTheCause() {
        let decoding = NSError(domain: "NSOSStatusErrorDomain", code: 1954115647, userInfo: [
            NSLocalizedDescriptionKey: "The audio file a.wav is not in a supported format.",
            NSLocalizedFailureReasonErrorKey: "Format not recognised.", NSFilePathErrorKey: "a.wav"])
        let error = MigrationError(.audioUnreadable, "The audio file a.wav cannot be decoded.", underlying: decoding)
        #expect(error.description == "The audio file a.wav cannot be decoded. (The audio file a.wav is not in a supported format.)")
        #expect(MigrationError(.audioUnreadable, "Bad.", underlying: Described()).description == "Bad. (engine said why)")
        let nested = MigrationError(.recognitionFailed, "Outer.",
                                    underlying: MigrationError(.audioUnreadable, "Inner."))
        #expect(nested.description == "Outer. (Inner.)")
        #expect(MigrationError(.audioUnreadable, "Alone.").description == "Alone.")
    }
}
