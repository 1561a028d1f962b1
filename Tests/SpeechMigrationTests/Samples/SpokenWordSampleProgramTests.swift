import Foundation
import Testing
import TestSupport

/// Apple's SpokenWord custom-language-model flow, compiled unchanged as
/// Samples/SpokenWord: its data generator exports training data, its
/// recognizer prepares the model and recognizes corpus speech with
/// `customizedLanguageModel` on an on-device URL request.
@Suite("SpokenWord sample program",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct SpokenWordSampleProgramTests {
    @Test func dataGeneratorThenRecognizerFindsTheCustomNames() throws {
        let folder = try Fixtures.temporaryDirectory("spokenword")
        defer { try? FileManager.default.removeItem(at: folder) }
        let asset = folder.appendingPathComponent("customlm/en_US/CustomLMData.bin")
        let program = ExampleProgram(name: "SpokenWord")

        let generated = try program.run(["datagenerator", asset.path])
        #expect(generated.status == 0, "\(generated.error)")
        let training = try String(contentsOf: asset, encoding: .utf8)
        #expect(training.contains("Birket Foster's landscapes") && training.contains("w I t m O r"))

        // "Not at this particular case, Tom, apologized Whittemore." and
        // "Author of the danger trail, Philip Steels, etc." (CMU ARCTIC).
        let clips = ["cmu_arctic_us_aew_a0002", "cmu_arctic_us_aew_a0001"]
            .map { Fixtures.corpusClip("audio/cmu-arctic/\($0).wav").path }
        let run = try program.run(["recognize", asset.path] + clips + ["--compare"])
        #expect(run.status == 0, "\(run.error)")
        let transcripts = run.lines(prefixed: "TRANSCRIPT ")
        #expect(transcripts.count == 2, "\(run.output)")
        #expect(run.lines(prefixed: "FOUND: ") == ["Whittemore", "Philip Steels"], "\(run.output)")
        #expect(transcripts.first?.lowercased().contains("particular case") == true, "\(run.output)")
        #expect(transcripts.last?.lowercased().contains("danger trail") == true, "\(run.output)")
        // The prepared files are the app's to remove: the sample does.
        #expect(!run.output.contains("Error"))
    }

    @Test func misuseAndUnusableDataAreReported() throws {
        let program = ExampleProgram(name: "SpokenWord")
        #expect(try program.run([]).status == 64)
        let folder = try Fixtures.temporaryDirectory("spokenword-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bad = folder.appendingPathComponent("CustomLMData.bin")
        try Data("{\"format\": \"other\"}".utf8).write(to: bad)
        let run = try program.run(["recognize", bad.path, Fixtures.corpusClip("audio/pocketsphinx/ps_goforward.wav").path])
        #expect(run.status == 1)
        #expect(run.error.contains("malformed"), "\(run.error)")
    }
}
