/// Splits audio into chunks of at most 30 s at pauses in the speech, for
/// batched decoding (each chunk is one encoder window, decoded on its own).
///
/// The speech detector's regions are padded (its onsets and ends sit on the
/// first and last speech-like frames, and a word's soft edges lie outside
/// them), merged while a chunk stays within the limit, so a chunk holds
/// whole utterances and the pauses between them. A region longer than the
/// limit (speech with no pause the detector hears) is cut in the middle of
/// its quietest 200 ms in the second half of the limit, the likeliest gap
/// between phrases. Chunks do not overlap and keep their order; audio between chunks
/// holds no speech and is not decoded.
/// ref: faster_whisper/transcribe.py `BatchedInferencePipeline` (merge_segments)
struct SpeechChunker: Sendable {
    /// Longest chunk, in samples (the encoder's 30 s window).
    var maximumSampleCount = 30 * 16_000
    /// Audio added before and after each speech region, in samples.
    var paddingSampleCount = 6_400
    /// Frame over which energy is measured for the cut point, in samples (20 ms).
    var frameSampleCount = 320
    /// Frames in the quiet stretch a cut goes in the middle of (200 ms).
    var quietFrameCount = 10

    /// The chunks of `samples` for speech `regions` (sample ranges, in order).
    func chunks(of samples: [Float], speech regions: [Range<Int>]) -> [Range<Int>] {
        let total = samples.count
        // Pad, clip, and join regions the padding makes touch.
        var padded: [Range<Int>] = []
        for region in regions where !region.isEmpty {
            let range = max(0, region.lowerBound - paddingSampleCount)..<min(total, region.upperBound + paddingSampleCount)
            guard !range.isEmpty else { continue }
            if let last = padded.last, range.lowerBound <= last.upperBound {
                padded[padded.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                padded.append(range)
            }
        }
        // No region is longer than a chunk.
        var pieces: [Range<Int>] = []
        for region in padded {
            var start = region.lowerBound
            while region.upperBound - start > maximumSampleCount {
                let cut = quietestPoint(in: samples, from: start + maximumSampleCount / 2, to: start + maximumSampleCount)
                pieces.append(start..<cut)
                start = cut
            }
            pieces.append(start..<region.upperBound)
        }
        // Merge neighbours while the chunk, pauses included, fits in the limit.
        var chunks: [Range<Int>] = []
        for piece in pieces {
            if let last = chunks.last, piece.upperBound - last.lowerBound <= maximumSampleCount {
                chunks[chunks.count - 1] = last.lowerBound..<piece.upperBound
            } else {
                chunks.append(piece)
            }
        }
        return chunks
    }

    /// Where to cut in `from..<to`: the middle of the quietest stretch of
    /// `quietFrameCount` frames (200 ms), `to` when the span holds no whole frame.
    ///
    /// A stretch, not a single 20 ms frame: the quietest frame of fluent
    /// speech is often a stop consonant inside a word, while the quietest
    /// 200 ms is a gap between phrases or sentences, and a chunk (never
    /// prompted with the text before it) should start at one.
    func quietestPoint(in samples: [Float], from: Int, to: Int) -> Int {
        let end = min(to, samples.count)
        guard end - from >= frameSampleCount else { return to }
        var energies: [Float] = []
        var frame = from
        while frame + frameSampleCount <= end {
            var energy: Float = 0
            for i in frame..<(frame + frameSampleCount) { energy += samples[i] * samples[i] }
            energies.append(energy)
            frame += frameSampleCount
        }
        let span = min(quietFrameCount, energies.count)
        var sum = energies[0..<span].reduce(0, +)
        var best = (sum: sum, first: 0)
        for first in 1..<max(1, energies.count - span + 1) {
            sum += energies[first + span - 1] - energies[first - 1]
            if sum < best.sum { best = (sum, first) }
        }
        return from + (best.first + span / 2) * frameSampleCount
    }
}
