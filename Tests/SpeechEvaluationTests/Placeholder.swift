import Testing
@Test func SpeechEvaluationTestsBuilds() { #expect(Bool(true)) }
