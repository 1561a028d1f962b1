import Testing
@Test func speechCLITestsBuilds() { #expect(Bool(true)) }
