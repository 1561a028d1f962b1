import Foundation
import Testing
@testable import SpeechEngine

/// `ModelFile` on small `model.bin` files written by `ModelFileWriter`, and
/// the Whisper weight layout (`WhisperWeights.swift`) on the tiny checkpoint.
@Suite struct ModelFileTests {
    func read(_ writer: ModelFileWriter) throws -> ModelFile {
        let url = try writer.write()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        return try ModelFile(contentsOf: url)
    }

    func expectInvalid(_ writer: ModelFileWriter, _ comment: Comment) {
        #expect(throws: EngineError.self, comment) {
            do { _ = try read(writer) } catch let error as EngineError {
                #expect(error.code == .invalidModelFile, comment)
                #expect(error.message.contains("model.bin"), "the message names the file")
                throw error
            }
        }
    }

    @Test func readsEveryDTypeAsFloat() throws {
        var writer = ModelFileWriter()
        writer.add("a/f32", shape: [2, 2], f32: [1.5, -2, 0.25, 1e-3])
        writer.add("a/f16", shape: [3], f16: [0.5, -1.25, 2048])
        writer.add("a/bf16", shape: [2], bf16: [3.0, -0.5])
        writer.add("a/i8", shape: [3], i8: [-128, 0, 127])
        writer.add("a/i16", shape: [2], i16: [-30000, 7])
        writer.add("a/i32", shape: [2], i32: [-70000, 123456])
        let file = try read(writer)
        #expect(file.specName == "WhisperSpec")
        #expect(file.tensors["a/f32"]?.shape == [2, 2])
        #expect(file.tensors["a/f32"]?.values == [1.5, -2, 0.25, 1e-3])
        #expect(file.tensors["a/f16"]?.values == [0.5, -1.25, 2048])
        #expect(file.tensors["a/bf16"]?.values == [3.0, -0.5])
        #expect(file.tensors["a/i8"]?.values == [-128, 0, 127])
        #expect(file.tensors["a/i16"]?.values == [-30000, 7])
        #expect(file.tensors["a/i32"]?.values == [-70000, 123456])
    }

    /// fp16 conversion (F16C) over many values, subnormals and infinities included.
    @Test func convertsHalfPrecisionExactly() throws {
        let values: [Float] = (0..<1000).map { Float(Float16(Float($0 - 500) * 0.37)) }
            + [Float(Float16.leastNonzeroMagnitude), -65504, 65504, -0.0]
        var writer = ModelFileWriter()
        writer.add("h", shape: [values.count], f16: values)
        let read = try read(writer).tensors["h"]!.values
        #expect(read.map(\.bitPattern) == values.map(\.bitPattern))
    }

    /// `float16Weights` keeps a float16 matrix's bits as the file has them;
    /// a matrix stored as f32 stays float (rounding it would change it), and
    /// a compact matrix asked for as float is a clear error.
    @Test func halfFormKeepsTheFilesBitsAndLeavesSinglePrecisionFloat() throws {
        let halves: [Float] = [0.5, -1.25, 2048, 1e-3, -7, 0.1]
        var writer = ModelFileWriter()
        writer.add("m/half", shape: [2, 3], f16: halves)
        writer.add("m/single", shape: [2, 2], f32: [1.5, -2, 0.25, 1e-3])
        let url = try writer.write()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        var file = try ModelFile(contentsOf: url, storing: { _, _ in .half })
        guard case .half(let matrix) = try file.takeWeights("m/half", shape: [2, 3]) else {
            Issue.record("an f16 matrix was not kept in half precision")
            return
        }
        #expect(matrix.bits == halves.map { Float16($0).bitPattern })
        guard case .float(let values) = try file.takeWeights("m/single", shape: [2, 2]) else {
            Issue.record("an f32 matrix was rounded to half")
            return
        }
        #expect(values == [1.5, -2, 0.25, 1e-3])
        var again = try ModelFile(contentsOf: url, storing: { _, _ in .half })
        #expect(throws: EngineError.self) { _ = try again.take("m/half", shape: [2, 3]) }
    }

    /// A half matrix keeps its bits unconverted, so its Inf and NaN checks
    /// run on the bits: each is refused, naming the variable; the largest
    /// finite half is not.
    @Test(arguments: [Float.infinity, -Float.infinity, Float.nan])
    func halfFormRefusesNonFiniteWeights(_ bad: Float) throws {
        for (value, refused) in [(bad, true), (Float(65504), false)] {
            var writer = ModelFileWriter()
            writer.add("m/half", shape: [3, 2], f16: [0.5, -1, 2, value, 0, 1])
            let url = try writer.write()
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            do {
                _ = try ModelFile(contentsOf: url, storing: { _, _ in .half })
                #expect(!refused, "\(value) was accepted")
            } catch let error as EngineError {
                #expect(refused, "\(value) was refused: \(error.message)")
                #expect(error.code == .invalidModelFile && error.message.contains("m/half"))
            }
        }
    }

    /// The tiny checkpoint (fp16 embeddings, fp32 layers, as `TinyWhisper`
    /// writes it) loaded with half weights: the embeddings stay half, the
    /// fp32 layers float, and the decoder's logits (the embeddings' lookups
    /// and the vocabulary projection through the half kernels, one position
    /// at a time and all at once) are float32's up to the order of the sums.
    @Test func float16WeightsRunTheSameNetworkAsFloat32() throws {
        let directory = try Self.tinyCheckpoint()
        defer { try? FileManager.default.removeItem(at: directory) }
        let float = try WhisperModel(directory: directory, computeType: .float32)
        let half = try WhisperModel(directory: directory, computeType: .float16Weights)
        guard case .half = half.decoder.weights.embeddings.weights,
              case .float = half.encoder.weights.blocks[0].ffnIn.weights else {
            Issue.record("float16Weights: embeddings not half, or fp32 layers rounded")
            return
        }
        #expect(half.decoder.weights.embeddings.byteCount * 2 == float.decoder.weights.embeddings.byteCount)
        let tokens = [TinyWhisper.special.startOfTranscript, 300, 257, 1000, 4000, 12_345, 300, 299, 258]
        #expect(half.decoder.crossAttentionPrecision == (.half, .half) && float.decoder.crossAttentionPrecision == (.float, .float))
        func logits(_ model: WhisperModel) -> [Float] {
            // The weights are the question here: both keep the cross-attention cache in float.
            var decoder = model.decoder
            decoder.crossAttentionPrecision = (.float, .float)
            var cache = decoder.makeSelfAttentionCache(sequenceCount: 1)
            var capture: TextDecoder.AlignmentCapture?
            return decoder.decode([tokens], cache: &cache, cross: TinyWhisper.cross(decoder),
                                  logitPositions: Array(tokens.indices), capture: &capture)
        }
        let expected = logits(float), actual = logits(half)
        #expect(actual.count == expected.count && !actual.isEmpty)
        #expect(zip(actual, expected).allSatisfy { abs($0 - $1) <= 1e-4 }, "logits")
    }

    /// Shipped checkpoints hold the convolutions and the position tables in
    /// fp16: every type but float32 keeps them half (5 MB of whisper-base's
    /// as float), and the network is float32's: the same values widened, the
    /// convolutions' products through the half kernels, so the encoder's
    /// output and the logits match float32's up to the order of the sums.
    @Test func halfTablesStayHalfAndRunAsFloat32() throws {
        let directory = try ModelFileWriter.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try TinyWhisper.write(to: directory, halfTables: true)
        let float = try WhisperModel(directory: directory, computeType: .float32)
        let half = try WhisperModel(directory: directory, computeType: .float16Weights)
        func tables(_ model: WhisperModel) -> [(String, Linear)] {
            [("conv1", model.encoder.weights.conv1), ("conv2", model.encoder.weights.conv2),
             ("encoder positions", model.encoder.weights.positions), ("decoder positions", model.decoder.weights.positions)]
        }
        for ((name, halfTable), (_, floatTable)) in zip(tables(half), tables(float)) {
            guard case .half = halfTable.weights, case .float = floatTable.weights else {
                Issue.record("\(name): float16Weights keeps it half, float32 float")
                continue
            }
            #expect(halfTable.byteCount - 4 * halfTable.bias.count == (floatTable.byteCount - 4 * floatTable.bias.count) / 2,
                    "\(name)")
        }
        let frames = 2 * TinyWhisper.audioContext
        let mel = TinyWhisper.formula("mel", count: TinyWhisper.melCount * frames, scale: 0.8)
        let expected = float.encoder.encode(mel, frameCount: frames), actual = half.encoder.encode(mel, frameCount: frames)
        #expect(actual.count == expected.count && !actual.isEmpty)
        #expect(zip(actual, expected).allSatisfy { abs($0 - $1) <= 1e-5 * max(1, abs($1)) }, "encoder output")
        let expectedLogits = Self.logits(float), actualLogits = Self.logits(half)
        #expect(zip(actualLogits, expectedLogits).allSatisfy { abs($0 - $1) <= 1e-3 }, "logits")
    }

    /// The tiny checkpoint (`TinyWhisper`) written to a new temporary folder, which the caller removes.
    static func tinyCheckpoint() throws -> URL {
        let directory = try ModelFileWriter.temporaryDirectory()
        try TinyWhisper.write(to: directory)
        return directory
    }

    /// The decoder's logits at every position of a fixed token sequence over the tiny checkpoint's audio.
    static func logits(_ model: WhisperModel) -> [Float] {
        let tokens = [TinyWhisper.special.startOfTranscript, 300, 257, 1000, 4000, 12_345, 300, 299, 258]
        var cache = model.decoder.makeSelfAttentionCache(sequenceCount: 1)
        var capture: TextDecoder.AlignmentCapture?
        return model.decoder.decode([tokens], cache: &cache, cross: TinyWhisper.cross(model),
                                    logitPositions: Array(tokens.indices), capture: &capture)
    }

    /// `int8Encoder` quantizes the encoder's layers for the integer kernels,
    /// `int8EncoderFeedForward` only its feed-forward layers; both load the
    /// decoder exactly as `float16Weights` does: the same logits bit for bit,
    /// while the encoder's output stays within the int8 rounding of float32's.
    @Test(arguments: [ComputeType.int8Encoder, .int8EncoderFeedForward])
    func int8EncoderTypesQuantizeTheirLayersAndKeepTheHalfDecoder(_ type: ComputeType) throws {
        let directory = try Self.tinyCheckpoint()
        defer { try? FileManager.default.removeItem(at: directory) }
        let float = try WhisperModel(directory: directory, computeType: .float32)
        let half = try WhisperModel(directory: directory, computeType: .float16Weights)
        let mixed = try WhisperModel(directory: directory, computeType: type)
        #expect(mixed.computeType == type)
        let attentionInInt8 = type == .int8Encoder
        for block in mixed.encoder.weights.blocks {
            for (name, layer, int8) in [("qkv", block.qkv, attentionInInt8), ("attention out", block.attentionOut, attentionInInt8),
                                        ("ffn in", block.ffnIn, true), ("ffn out", block.ffnOut, true)] {
                if case .int8(let matrix) = layer.weights {
                    #expect(int8, "\(type): \(name) is int8")
                    #expect(matrix.arithmetic == .integer)
                } else {
                    #expect(!int8, "\(type): \(name) is not int8")
                }
            }
        }
        guard case .half = mixed.decoder.weights.embeddings.weights,
              case .float = mixed.decoder.weights.blocks[0].ffnIn.weights else {
            Issue.record("\(type): the decoder is not float16Weights' (half embeddings, fp32 layers float)")
            return
        }
        #expect(mixed.decoder.crossAttentionPrecision == (.half, .half))

        #expect(Self.logits(mixed) == Self.logits(half), "the decoder runs as float16Weights")

        let frames = 2 * TinyWhisper.audioContext
        let mel = TinyWhisper.formula("mel", count: TinyWhisper.melCount * frames, scale: 0.8)
        let expected = float.encoder.encode(mel, frameCount: frames)
        let actual = mixed.encoder.encode(mel, frameCount: frames)
        #expect(actual.count == expected.count && actual.allSatisfy(\.isFinite))
        // After the final layer norm the outputs are of order 1; int8 keeps ~2 significant digits.
        let worst = zip(actual, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= 0.1, "largest difference from float32: \(worst)")
        #expect(actual != expected, "the integer kernels ran")
    }

    /// `int8Mixed` quantizes the encoder's feed-forward layers as
    /// `int8EncoderFeedForward` does and every decoder layer for two-level
    /// activations, and keeps the encoder's attention and the embeddings
    /// half: its logits stay within the int8 weights' rounding of the half
    /// decoder's, and its encoder gives `int8EncoderFeedForward`'s bits.
    @Test func int8MixedQuantizesTheDecoderForTwoLevelActivations() throws {
        let directory = try Self.tinyCheckpoint()
        defer { try? FileManager.default.removeItem(at: directory) }
        let half = try WhisperModel(directory: directory, computeType: .float16Weights)
        let feedForward = try WhisperModel(directory: directory, computeType: .int8EncoderFeedForward)
        let mixed = try WhisperModel(directory: directory, computeType: .int8Mixed)
        func arithmetic(_ layer: Linear) -> QuantizedMatrix.Arithmetic? {
            if case .int8(let matrix) = layer.weights { matrix.arithmetic } else { nil }
        }
        for block in mixed.encoder.weights.blocks {
            #expect(arithmetic(block.qkv) == nil && arithmetic(block.attentionOut) == nil, "encoder attention half")
            #expect(arithmetic(block.ffnIn) == .integer && arithmetic(block.ffnOut) == .integer)
        }
        for block in mixed.decoder.weights.blocks {
            for layer in [block.selfQKV, block.selfOut, block.crossQuery, block.crossKeyValue, block.crossOut,
                          block.ffnIn, block.ffnOut] {
                #expect(arithmetic(layer) == .integerWithResidual)
            }
        }
        guard case .half = mixed.decoder.weights.embeddings.weights else {
            Issue.record("int8Mixed: the embeddings are not half")
            return
        }
        #expect(mixed.decoder.crossAttentionPrecision == ComputeType.int8Mixed.crossAttentionPrecision)

        let frames = 2 * TinyWhisper.audioContext
        let mel = TinyWhisper.formula("mel", count: TinyWhisper.melCount * frames, scale: 0.8)
        #expect(mixed.encoder.encode(mel, frameCount: frames) == feedForward.encoder.encode(mel, frameCount: frames))

        let expected = Self.logits(half), actual = Self.logits(mixed)
        #expect(actual.count == expected.count && actual.allSatisfy(\.isFinite))
        let range = (expected.max() ?? 0) - (expected.min() ?? 0)
        let worst = zip(actual, expected).map { abs($0 - $1) }.max() ?? .infinity
        // Random weights through every layer: 2.6% of the range at most, measured.
        #expect(worst <= 0.05 * range, "largest difference from the half decoder: \(worst) of a range of \(range)")
        #expect(actual != expected, "the integer kernels ran")
    }

    @Test func rankZeroVariablesAreScalarsAndAliasesShareTheirTarget() throws {
        var writer = ModelFileWriter()
        writer.add("encoder/num_heads", shape: [], i32: [6])
        writer.add("decoder/embeddings/weight", shape: [2, 1], f32: [4, 5])
        writer.aliases = [("decoder/projection/weight", "decoder/embeddings/weight"), ("dangling", "missing")]
        let file = try read(writer)
        #expect(file.scalars["encoder/num_heads"] == 6)
        #expect(file.tensors["encoder/num_heads"] == nil)
        #expect(file.tensors["decoder/projection/weight"]?.values == [4, 5])
        #expect(file.tensors["dangling"] == nil)
    }

    @Test func tensorChecksTheShapeAndTakeRemoves() throws {
        var writer = ModelFileWriter()
        writer.add("w", shape: [2, 3], f32: [1, 2, 3, 4, 5, 6])
        var file = try read(writer)
        #expect(throws: EngineError.self) { try file.tensor("w", shape: [3, 2]) }
        #expect(throws: EngineError.self) { try file.tensor("absent", shape: [1]) }
        #expect(try file.take("w", shape: [2, 3]) == [1, 2, 3, 4, 5, 6])
        #expect(file.tensors["w"] == nil)
    }

    @Test func missingFileIsModelNotFound() {
        let url = URL(fileURLWithPath: "/nonexistent/speechcompat/model.bin")
        #expect(throws: EngineError.self) {
            do { _ = try ModelFile(contentsOf: url) } catch let error as EngineError {
                #expect(error.code == .modelNotFound)
                throw error
            }
        }
    }

    @Test func malformedFilesAreInvalidModelFile() {
        var version = ModelFileWriter()
        version.version = 5
        expectInvalid(version, "version 5")

        var dtype = ModelFileWriter()
        dtype.add("x", shape: [1], dtypeCode: 9, bytes: [0, 0, 0, 0])
        expectInvalid(dtype, "unknown dtype")

        var size = ModelFileWriter()
        size.add("x", shape: [3], dtypeCode: ModelFileWriter.DType.f32.rawValue, bytes: [UInt8](repeating: 0, count: 8))
        expectInvalid(size, "byte count disagrees with the shape")
    }

    @Test func truncatedFilesAreInvalidModelFileAtEveryCut() throws {
        var writer = ModelFileWriter()
        writer.add("w", shape: [4], f32: [1, 2, 3, 4])
        writer.add("s", shape: [], i32: [2])
        let bytes = writer.bytes()
        let folder = try ModelFileWriter.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("model.bin")
        for cut in stride(from: 0, to: bytes.count, by: 3) {
            try Data(bytes[0..<cut]).write(to: url)
            #expect(throws: EngineError.self, "cut at \(cut) of \(bytes.count)") { try ModelFile(contentsOf: url) }
        }
        try Data(bytes).write(to: url)
        #expect(try ModelFile(contentsOf: url).tensors["w"]?.values == [1, 2, 3, 4])
    }

    @Test func tinyCheckpointLoadsWithItsDimensions() throws {
        let model = try TinyWhisper.model()
        let d = model.dimensions
        #expect(d.width == TinyWhisper.width && d.headCount == TinyWhisper.headCount && d.headWidth == 4)
        #expect(d.melCount == 80 && d.audioContext == 16 && d.textContext == 12)
        #expect(d.encoderLayerCount == 1 && d.decoderLayerCount == 2)
        #expect(d.vocabularySize == 51864 && !d.isMultilingual)
        #expect(model.config.alignmentHeads == TinyWhisper.alignmentHeads)
        // Weights land where their checkpoint keys say.
        let block = model.decoder.weights.blocks[1]
        #expect(block.crossKeyValue.outCount == 16 && block.crossKeyValue.inCount == 8)
        #expect(model.decoder.weights.finalNorm.gamma == TinyWhisper.values("decoder/layer_norm/gamma", count: 8))
        guard case .float(let positions) = model.decoder.weights.positions.weights else {
            Issue.record("float32 keeps the position table float")
            return
        }
        #expect(positions == TinyWhisper.values("decoder/position_encodings/encodings", count: 96))
        #expect(model.tokenizer.decode([256, 300]) == " w256 w300")
    }

    @Test func dimensionsRejectAFileWithoutWhisperTensors() throws {
        var writer = ModelFileWriter()
        writer.add("w", shape: [1], f32: [0])
        let file = try read(writer)
        #expect(throws: EngineError.self) { try file.dimensions() }
    }

    @Test func weightsWithAWrongShapeAreRejected() throws {
        var writer = TinyWhisper.modelFile()
        // Replace the final decoder norm's gamma by a wider one.
        var variables = writer.variables
        let index = variables.firstIndex { $0.name == "decoder/layer_norm/gamma" }!
        variables[index] = ("decoder/layer_norm/gamma", [9], ModelFileWriter.DType.f32.rawValue, [UInt8](repeating: 0, count: 36))
        writer = ModelFileWriter()
        for v in variables { writer.add(v.name, shape: v.shape, dtypeCode: v.dtype, bytes: v.bytes) }
        var file = try read(writer)
        let dimensions = try file.dimensions()
        #expect(throws: EngineError.self) { try file.decoderWeights(dimensions) }
    }
}
