import SpeechEngine
import Testing
@testable import SpeechCLI

/// `--compute-type` wins; without it `SPEECHCOMPAT_COMPUTE_TYPE` (as the
/// faces' loads read it), else the default; either naming no type is a usage error.
@Suite struct ModelChoiceTests {
    func computeType(_ arguments: [String], environment: [String: String]) throws(UsageError) -> ComputeType {
        let parsed = try ParsedArguments(["a.wav"] + arguments, specs: TranscribeCommand.help.options)
        return try ModelChoice.computeType(arguments: parsed, environment: environment)
    }

    @Test func theOptionThenTheEnvironmentThenTheDefault() throws {
        let variable = ComputeType.environmentVariable
        #expect(try computeType([], environment: [:]) == .default)
        #expect(try computeType([], environment: [variable: "int8-mixed"]) == .int8Mixed)
        #expect(try computeType(["--compute-type", "float32"], environment: [variable: "int8-mixed"]) == .float32)
        let error = try #require(throws: UsageError.self) { try computeType([], environment: [variable: "int4"]) }
        #expect(error.message.contains("SPEECHCOMPAT_COMPUTE_TYPE=int4"), "\(error.message)")
        #expect(throws: UsageError.self) { try computeType(["--compute-type", "int4"], environment: [:]) }
    }
}
