import Testing
@testable import SpeechEngine

/// Whisper's repetition measure against Python's `zlib.compress` (level 6),
/// as whisper/utils.py `compression_ratio` computes it.
@Suite struct CompressionRatioTests {
    @Test("ratio matches zlib.compress", arguments: try DecodingReferenceData.shared().compressionRatio)
    func matchesReference(_ reference: DecodingReferenceData.CompressionCase) {
        #expect(abs(CompressionRatio.of(reference.text) - reference.ratio) < 1e-12)
    }

    /// The fallback threshold is 2.4: looping text is above it, ordinary speech below.
    @Test func repetitiveTextIsAboveTheFallbackThreshold() {
        let loop = String(repeating: "I don't know. ", count: 20)
        #expect(CompressionRatio.of(loop) > 2.4)
        #expect(CompressionRatio.of("We choose to go to the moon in this decade and do the other things.") < 2.4)
    }
}
