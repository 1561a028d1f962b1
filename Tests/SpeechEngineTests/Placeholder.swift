import Testing
@Test func SpeechEngineTestsBuilds() { #expect(Bool(true)) }
