import CBLAS

/// Whisper's audio encoder: two convolutions, sinusoidal positions, the
/// transformer blocks and a final layer norm.
/// ref: whisper/model.py `AudioEncoder.forward`
struct AudioEncoder: Sendable {
    let weights: EncoderWeights
    let dimensions: ModelDimensions

    /// Encodes a log-mel window.
    /// - Shape: `mel` is `[melCount, frameCount]` (mel-major), `frameCount`
    ///   even and at most `2 * audioContext`; returns `[frameCount / 2, width]`.
    func encode(_ mel: [Float], frameCount: Int) -> [Float] {
        let d = dimensions
        precondition(mel.count == d.melCount * frameCount && frameCount % 2 == 0
                     && frameCount / 2 <= d.audioContext, "encoder input shape mismatch")
        let positions = frameCount / 2

        // conv1: mel-major input, time-major output [frameCount, width].
        var x = Self.convolve(input: mel, channelsFirst: true, inChannels: d.melCount, length: frameCount,
                              layer: weights.conv1, stride: 1)
        Activation.gelu(&x)
        x = Self.convolve(input: x, channelsFirst: false, inChannels: d.width, length: frameCount,
                          layer: weights.conv2, stride: 2)
        Activation.gelu(&x)
        x.withUnsafeMutableBufferPointer { v in
            withUnsafeTemporaryAllocation(of: Float.self, capacity: d.width) { position in
                for t in 0..<positions {
                    weights.positions.copyWeightRow(t, into: position.baseAddress!)
                    for j in 0..<d.width { v[t * d.width + j] += position[j] }
                }
            }
        }
        for block in weights.blocks {
            x = encode(block: block, x, rows: positions)
        }
        return weights.finalNorm(x, rows: positions)
    }

    private func encode(block: EncoderBlockWeights, _ input: [Float], rows: Int) -> [Float] {
        var x = input
        let qkv = block.qkv(block.attentionNorm(x, rows: rows), rows: rows)
        let attended = selfAttention(qkv, rows: rows)
        addInPlace(&x, block.attentionOut(attended, rows: rows))
        var hidden = block.ffnIn(block.ffnNorm(x, rows: rows), rows: rows)
        Activation.gelu(&hidden)
        addInPlace(&x, block.ffnOut(hidden, rows: rows))
        return x
    }

    /// Queries attended at once per head. Softmax is per query row, so blocks
    /// give the same result as all rows at once, and a thread's scores take
    /// 256 × 1500 floats (1.5 MB) instead of 1500 × 1500 (9 MB): the two
    /// threads' scores were the largest buffers of a window's encoding.
    static let queryBlockRows = 256

    /// Multi-head self-attention over fused `[rows, 3 * width]` q, k, v.
    private func selfAttention(_ qkv: [Float], rows: Int) -> [Float] {
        let d = dimensions
        let head = AttentionHead(headWidth: d.headWidth, scale: 1 / Float(d.headWidth).squareRoot())
        let block = min(rows, Self.queryBlockRows)
        var output = [Float](repeating: 0, count: rows * d.width)
        // Heads on both cores, so the 1500×1500 softmax does not run on one.
        qkv.withUnsafeBufferPointer { qkvBuffer in
            output.withUnsafeMutableBufferPointer { out in
                let base = qkvBuffer.baseAddress!
                AttentionHead.forEachHead(count: d.headCount, scoresPerHead: block * rows) { h, scores in
                    let offset = h * d.headWidth
                    for first in stride(from: 0, to: rows, by: block) {
                        head.attend(query: base + first * 3 * d.width + offset, queryStride: 3 * d.width,
                                    queryCount: min(block, rows - first),
                                    key: base + d.width + offset, keyStride: 3 * d.width,
                                    value: base + 2 * d.width + offset, valueStride: 3 * d.width, keyCount: rows,
                                    causalOffset: nil, scores: scores,
                                    output: out.baseAddress! + first * d.width + offset, outputStride: d.width)
                    }
                }
            }
        }
        return output
    }

    /// 1-D convolution with kernel 3 and padding 1 as one GEMM over an im2col
    /// matrix. Returns time-major `[outLength, outChannels]`.
    /// - Parameter channelsFirst: input is `[inChannels, length]` (else `[length, inChannels]`).
    /// - Parameter layer: the kernel as `[outChannels, inChannels * 3]` (column `in * 3 + k`).
    static func convolve(input: [Float], channelsFirst: Bool, inChannels: Int, length: Int,
                         layer: Linear, stride: Int) -> [Float] {
        let kernel = 3
        let outLength = (length + 2 - kernel) / stride + 1
        let columnWidth = inChannels * kernel
        precondition(layer.inCount == columnWidth, "convolution kernel shape mismatch")
        var columns = [Float](repeating: 0, count: outLength * columnWidth)
        input.withUnsafeBufferPointer { x in
            columns.withUnsafeMutableBufferPointer { c in
                for t in 0..<outLength {
                    let row = c.baseAddress! + t * columnWidth
                    for k in 0..<kernel {
                        let source = t * stride + k - 1
                        guard source >= 0 && source < length else { continue }
                        // weight layout [out, in, k]: column index = in * 3 + k
                        for i in 0..<inChannels {
                            row[i * kernel + k] = channelsFirst ? x[i * length + source] : x[source * inChannels + i]
                        }
                    }
                }
            }
        }
        return layer(columns, rows: outLength)
    }
}
