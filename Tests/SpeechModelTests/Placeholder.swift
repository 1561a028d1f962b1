import Testing
@Test func SpeechModelTestsBuilds() { #expect(Bool(true)) }
