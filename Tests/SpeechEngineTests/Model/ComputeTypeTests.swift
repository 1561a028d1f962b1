import Testing
@testable import SpeechEngine

/// Which tensors each compute type quantizes, and the type loads take from
/// `SPEECHCOMPAT_COMPUTE_TYPE` (layers loaded in each form: ModelFileTests;
/// on real speech: ComputeTypeModelTests).
@Suite struct ComputeTypeTests {
    @Test func theEnvironmentNamesTheTypeOfLoadsWithoutOne() throws {
        let variable = ComputeType.environmentVariable
        #expect(variable == "SPEECHCOMPAT_COMPUTE_TYPE")
        #expect(try ComputeType.configured(environment: [:]) == .default)
        #expect(try ComputeType.configured(environment: [variable: ""]) == .default)
        for type in ComputeType.allCases {
            #expect(try ComputeType.configured(environment: [variable: type.rawValue]) == type)
        }
        let error = try #require(throws: EngineError.self) {
            try ComputeType.configured(environment: [variable: "int4"])
        }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("SPEECHCOMPAT_COMPUTE_TYPE=int4") && error.message.contains("int8-mixed"),
                "\(error.message)")
    }

    /// Live audio's finals load `int8-mixed` unless the variable names a type (then that one, as for files).
    @Test func liveAudioLoadsTheLiveTypeUnlessTheEnvironmentNamesOne() throws {
        let variable = ComputeType.environmentVariable
        #expect(ComputeType.live == .int8Mixed)
        #expect(ComputeType.live != .default)
        #expect(try ComputeType.configured(environment: [:], unset: .live) == .int8Mixed)
        #expect(try ComputeType.configured(environment: [variable: ""], unset: .live) == .int8Mixed)
        #expect(try ComputeType.configured(environment: [variable: "float32"], unset: .live) == .float32)
    }

    /// `int8-mixed`: the encoder's feed-forward layers single-level, every
    /// decoder layer two-level, the encoder's attention and the embeddings half.
    @Test func int8MixedFormsByTensor() {
        let type = ComputeType.int8Mixed
        #expect(type.weightForm(ofTensor: "encoder/layer_0/ffn/linear_0/weight") == .int8(.integer))
        #expect(type.weightForm(ofTensor: "encoder/layer_5/ffn/linear_1/weight") == .int8(.integer))
        #expect(type.weightForm(ofTensor: "encoder/layer_0/self_attention/linear_0/weight") == .half)
        for layer in ["self_attention/linear_0", "self_attention/linear_1", "attention/linear_0", "attention/linear_1",
                      "attention/linear_2", "ffn/linear_0", "ffn/linear_1"] {
            #expect(type.weightForm(ofTensor: "decoder/layer_3/\(layer)/weight") == .int8(.integerWithResidual), "\(layer)")
        }
        #expect(type.weightForm(ofTensor: "decoder/embeddings/weight") == .half)
        // The feed-forward type keeps the decoder half and its own rule.
        #expect(ComputeType.int8EncoderFeedForward.weightForm(ofTensor: "decoder/layer_0/ffn/linear_0/weight") == .half)
        #expect(ComputeType.int8EncoderFeedForward.weightForm(ofTensor: "encoder/layer_0/ffn/linear_0/weight")
                == .int8(.integer))
        #expect(ComputeType.int8EncoderFeedForward.weightForm(ofTensor: "encoder/layer_0/self_attention/linear_0/weight")
                == .half)
    }
}
