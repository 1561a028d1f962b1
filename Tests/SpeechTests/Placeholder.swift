import Testing
@Test func speechTestsBuild() { #expect(Bool(true)) }
