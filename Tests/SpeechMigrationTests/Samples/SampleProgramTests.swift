import AVFoundation
import Foundation
import SpeechMigration
import SpeechMigrationTesting
import Testing
import TestSupport

/// Every sample program, both faces, on corpus audio through the real engine.
@Suite("Sample programs",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct SampleProgramTests {
    private let clip = MigrationModelSupport.goForward
    private let expected = OutcomeFixtures.reference("go forward ten meters")

    /// Runs both halves of a sample and checks that each printed the clip's words.
    private func bothFaces(_ sample: String, _ extra: [String] = [], audio: URL? = nil,
                           environment: [String: String] = [:]) throws -> [ExampleProgram.Run] {
        try ["legacy", "modern"].map { face in
            let run = try ExampleProgram(name: sample).run([face] + (audio.map { [$0.path] } ?? [clip.path]) + extra,
                                                          environment: environment)
            #expect(run.status == 0, "\(sample) \(face): \(run.error)")
            return run
        }
    }

    @Test func fileTranscription() throws {
        let runs = try bothFaces("FileTranscription")
        for run in runs { MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected, maximumWordErrorRate: 0) }
        MigrationExpectations.expectEquivalent(runs[1].outcome(.modern), to: runs[0].outcome(.legacy),
                                               timingToleranceSeconds: 0.5)
    }

    @Test func liveMicrophone() throws {
        let microphone = try ClipMicrophone(clip: clip)
        defer { microphone.remove() }
        for face in ["legacy", "modern"] {
            let run = try ExampleProgram(name: "LiveMicrophone").run([face, "3.5"], environment: microphone.environment)
            #expect(run.status == 0, "\(face): \(run.error)")
            MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected, maximumWordErrorRate: 0.25)
        }
    }

    @Test func delegateRecognition() throws {
        let runs = try bothFaces("DelegateRecognition")
        let legacyEvents = runs[0].lines(prefixed: "EVENT ").map { String($0.prefix { $0 != ":" }) }
        #expect(legacyEvents.first == "detectedSpeech")
        #expect(Array(legacyEvents.suffix(2)) == ["finalResult", "finishedSuccessfully"])
        // A file is read faster than it is recognized: partial results may follow finishedReadingAudio.
        let reading = try #require(legacyEvents.firstIndex(of: "finishedReadingAudio"))
        #expect(reading < legacyEvents.count - 2)
        #expect(runs[1].lines(prefixed: "EVENT ").contains { $0.hasPrefix("final:") })
        for run in runs { MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected) }
    }

    @Test func alternativesAndConfidence() throws {
        let runs = try bothFaces("AlternativesAndConfidence")
        for run in runs {
            MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected)
            let confidences = run.lines(prefixed: "CONFIDENCE ").compactMap { Double($0.split(separator: " ")[0]) }
            #expect(confidences.count >= 4 && confidences.allSatisfy { $0 > 0 && $0 <= 1 })
            #expect(!run.lines(prefixed: "ALTERNATIVE ").isEmpty)
        }
    }

    @Test func contextualStrings() throws {
        let runs = try bothFaces("ContextualStrings", ["forward", "meters"])
        for run in runs {
            #expect(run.output.contains("FOUND yes: forward"))
            MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected)
        }
    }

    @Test func assetManagement() throws {
        let runs = try bothFaces("AssetManagement")
        #expect(runs[0].output.contains("AVAILABLE: true"))
        #expect(runs[1].output.contains("STATUS: installed") && runs[1].output.contains("RELEASED: true"))
        for run in runs { MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected) }
    }

    @Test func speechDetection() throws {
        let speech = try bothFaces("SpeechDetection")
        for run in speech { #expect(run.output.contains("SPEECH: yes"), "\(run.output)") }
        let folder = try Fixtures.temporaryDirectory("silence")
        defer { try? FileManager.default.removeItem(at: folder) }
        let silence = folder.appendingPathComponent("silence.wav")
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let file = try AVAudioFile(forWriting: silence, settings: format.settings)
        let buffer = try #require(AVAudioPCMBuffer(pcmFormat: format, frameCapacity: 32_000))
        buffer.frameLength = 32_000
        try file.write(from: buffer)
        let quiet = try bothFaces("SpeechDetection", audio: silence)
        for run in quiet { #expect(run.output.contains("SPEECH: no"), "\(run.output)") }
        #expect(quiet[0].output.contains("ERROR: kAFAssistantErrorDomain 1110"))
    }

    @Test func compareFaces() throws {
        let run = try ExampleProgram(name: "CompareFaces").run([clip.path])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("legacy-over-modern vs legacy: WER"))
        let worst = try #require(run.lines(prefixed: "LARGEST-WER: ").first.flatMap(Double.init))
        #expect(worst <= 0.25)
    }
}
