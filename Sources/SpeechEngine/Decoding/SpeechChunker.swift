/// Splits audio into chunks of at most 30 s at pauses in the speech, for
/// batched decoding (each chunk is one encoder window, decoded on its own).
///
/// The speech detector's regions are padded (its onsets and ends sit on the
/// first and last speech-like frames, and a word's soft edges lie outside
/// them), merged while a chunk stays within the limit, so a chunk holds
/// whole utterances and the pauses between them. A region longer than the
/// limit (speech with no pause the detector hears) is cut at its quietest
/// 20 ms frame in the second half of the limit, the likeliest gap between
/// words. Chunks do not overlap and keep their order; audio between chunks
/// holds no speech and is not decoded.
/// ref: faster_whisper/transcribe.py `BatchedInferencePipeline` (merge_segments)
struct SpeechChunker: Sendable {
    /// Longest chunk, in samples (the encoder's 30 s window).
    var maximumSampleCount = 30 * 16_000
    /// Audio added before and after each speech region, in samples.
    var paddingSampleCount = 6_400
    /// Frame over which the quietest cut point is looked for, in samples (20 ms).
    var frameSampleCount = 320

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

    /// The start of the frame with the least energy in `from..<to` (the cut
    /// goes there), `to` when the span holds no whole frame.
    func quietestPoint(in samples: [Float], from: Int, to: Int) -> Int {
        var best = to
        var bestEnergy = Float.infinity
        var frame = from
        while frame + frameSampleCount <= min(to, samples.count) {
            var energy: Float = 0
            for i in frame..<(frame + frameSampleCount) { energy += samples[i] * samples[i] }
            if energy < bestEnergy {
                bestEnergy = energy
                best = frame
            }
            frame += frameSampleCount
        }
        return max(from, best)
    }
}
