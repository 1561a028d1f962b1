import Foundation
import Testing
@testable import SpeechEngine

/// Chunks for batched decoding: at most 30 s, in order, never overlapping,
/// holding every speech region, cut at pauses.
@Suite struct SpeechChunkerTests {
    static let rate = 16_000
    static let chunker = SpeechChunker()

    /// Noise-like "speech" (a deterministic chirp) over `regions` (seconds), silence elsewhere.
    static func audio(seconds: Double, speech regions: [ClosedRange<Double>], quietAt quiet: [Double] = [],
                      shortDipsAt shortDips: [Double] = []) -> [Float] {
        var samples = [Float](repeating: 0, count: Int(seconds * Double(rate)))
        for region in regions {
            for i in Int(region.lowerBound * Double(rate))..<min(samples.count, Int(region.upperBound * Double(rate))) {
                samples[i] = 0.3 * Float(sin(Double(i) * 0.05 + Double(i % 7)))
            }
        }
        // A 200 ms dip (a gap between phrases the detector does not call a pause).
        for second in quiet {
            let start = Int(second * Double(rate))
            for i in start..<min(samples.count, start + 3_200) { samples[i] *= 0.01 }
        }
        // A 20 ms frame of digital silence (a stop consonant).
        for second in shortDips {
            let start = Int(second * Double(rate))
            for i in start..<min(samples.count, start + 320) { samples[i] = 0 }
        }
        return samples
    }

    static func ranges(_ regions: [ClosedRange<Double>]) -> [Range<Int>] {
        regions.map { Int($0.lowerBound * Double(rate))..<Int($0.upperBound * Double(rate)) }
    }

    static func checkInvariants(_ chunks: [Range<Int>], covering regions: [Range<Int>], sampleCount: Int) {
        for chunk in chunks {
            #expect(!chunk.isEmpty)
            #expect(chunk.count <= chunker.maximumSampleCount, "chunk \(chunk) is longer than 30 s")
            #expect(chunk.lowerBound >= 0 && chunk.upperBound <= sampleCount)
        }
        for (a, b) in zip(chunks, chunks.dropFirst()) { #expect(a.upperBound <= b.lowerBound, "\(a) and \(b) overlap or are out of order") }
        for region in regions {
            let covered = chunks.reduce(0) { $0 + $1.clamped(to: region).count }
            #expect(covered == region.count, "region \(region) is not covered by the chunks")
        }
    }

    @Test func utterancesWithShortPausesShareAChunkUpTo30Seconds() {
        let regions: [ClosedRange<Double>] = [1...8, 9...17, 18...26, 27...35, 36...44]
        let samples = Self.audio(seconds: 46, speech: regions)
        let chunks = Self.chunker.chunks(of: samples, speech: Self.ranges(regions))
        Self.checkInvariants(chunks, covering: Self.ranges(regions), sampleCount: samples.count)
        // 0.6…26.4 s fits; the next utterance would make it 34.8 s.
        #expect(chunks.count == 2)
        let pad = Self.chunker.paddingSampleCount
        #expect(chunks[0] == (1 * 16_000 - pad)..<(26 * 16_000 + pad))
        #expect(chunks[1] == (27 * 16_000 - pad)..<(44 * 16_000 + pad))
    }

    @Test func paddingStopsAtTheAudioEdges() {
        let regions: [ClosedRange<Double>] = [0.1...3, 7...9.9]
        let samples = Self.audio(seconds: 10, speech: regions)
        let chunks = Self.chunker.chunks(of: samples, speech: Self.ranges(regions))
        #expect(chunks == [0..<samples.count])
    }

    @Test func speechLongerThanAChunkIsCutAtItsQuietestPoint() {
        let regions: [ClosedRange<Double>] = [0...70]
        let samples = Self.audio(seconds: 70, speech: regions, quietAt: [22, 49], shortDipsAt: [18, 45])
        let chunks = Self.chunker.chunks(of: samples, speech: Self.ranges(regions))
        Self.checkInvariants(chunks, covering: Self.ranges(regions), sampleCount: samples.count)
        // In the middle of each 200 ms dip, not at the 20 ms ones (quieter, but inside words).
        #expect(chunks.map(\.lowerBound) == [0, 22 * 16_000 + 1_600, 49 * 16_000 + 1_600])
    }

    @Test func noSpeechGivesNoChunks() {
        #expect(Self.chunker.chunks(of: [Float](repeating: 0, count: 16_000), speech: []).isEmpty)
    }

    @Test func aQuietPointIsNeverBeforeTheSearchStart() {
        let samples = [Float](repeating: 0.1, count: 1000)
        #expect(Self.chunker.quietestPoint(in: samples, from: 100, to: 1000) >= 100)
        #expect(Self.chunker.quietestPoint(in: samples, from: 900, to: 1000) == 1000)
        #expect(Self.chunker.quietestPoint(in: samples, from: 0, to: 1000) < 1000)
    }
}
