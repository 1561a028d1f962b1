import Testing
@testable import SpeechEngine

@Suite struct ByteLevelAlphabetTests {
    @Test func mapsAll256BytesToDistinctScalars() {
        let scalars = ByteLevelAlphabet.scalarForByte
        #expect(scalars.count == 256)
        #expect(Set(scalars.map(\.value)).count == 256)
        for byte in 0..<256 {
            #expect(ByteLevelAlphabet.byteForScalar[scalars[byte].value] == UInt8(byte))
        }
    }

    @Test func followsGPT2Layout() {
        #expect(ByteLevelAlphabet.scalarForByte[0x20] == "Ġ")
        #expect(ByteLevelAlphabet.scalarForByte[0x0A] == "Ċ")
        #expect(ByteLevelAlphabet.scalarForByte[0x00] == "\u{0100}")
        #expect(ByteLevelAlphabet.scalarForByte[0x41] == "A")
        #expect(ByteLevelAlphabet.scalarForByte[0xAD] == "\u{0143}")
        #expect(ByteLevelAlphabet.spelling(of: Array(" Hé".utf8)) == "ĠHÃ©")
        #expect(ByteLevelAlphabet.bytes(ofSpelling: "ĠHÃ©") == Array(" Hé".utf8))
        #expect(ByteLevelAlphabet.bytes(ofSpelling: "<|en|>") != nil)
        #expect(ByteLevelAlphabet.bytes(ofSpelling: "東") == nil)
    }
}
