import Testing
@Test func CompatTestsBuilds() { #expect(Bool(true)) }
