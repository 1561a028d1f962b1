import AVFoundation
import Foundation
import SpeechMigration
import SpeechMigrationTesting
import Testing
import TestSupport

/// The sample programs written like code found in the wild (issue 15): an
/// AVAssetReader loop, an `@Observable` recognizer, Swift 6 code sending an
/// `AVAudioFile` into tasks. Both faces, corpus audio, the real engine.
@Suite("Compatibility sample programs",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct CompatSampleProgramTests {
    private let clip = MigrationModelSupport.goForward
    private let expected = OutcomeFixtures.reference("go forward ten meters")

    private func bothFaces(_ sample: String, audio: URL? = nil) throws -> [ExampleProgram.Run] {
        try ["legacy", "modern"].map { face in
            let run = try ExampleProgram(name: sample).run([face, (audio ?? clip).path])
            #expect(run.status == 0, "\(sample) \(face): \(run.error)")
            return run
        }
    }

    @Test func assetReaderTranscriptionOnTheCorpusWAV() throws {
        let runs = try bothFaces("AssetReaderTranscription")
        for run in runs { MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected, maximumWordErrorRate: 0) }
        MigrationExpectations.expectEquivalent(runs[1].outcome(.modern), to: runs[0].outcome(.legacy),
                                               timingToleranceSeconds: 0.5)
        // 2.786 s at 16 kHz, all read, with the reader completed (status 2).
        let read = try #require(runs[0].lines(prefixed: "READ: ").first)
        #expect(read.hasPrefix("44580 samples, 2.786 s of 2.786 s") && read.hasSuffix("status 2"), "\(read)")
    }

    @Test func assetReaderTranscriptionResamplesAndMixesDownAStereoFLAC() throws {
        let folder = try Fixtures.temporaryDirectory("asset-reader")
        defer { try? FileManager.default.removeItem(at: folder) }
        let flac = try Self.stereoFLAC(of: clip, rate: 44_100, in: folder)
        let runs = try bothFaces("AssetReaderTranscription", audio: flac)
        for run in runs { MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected, maximumWordErrorRate: 0) }
        let read = try #require(runs[0].lines(prefixed: "READ: ").first)
        let samples = try #require(Int(read.prefix { $0 != " " }))
        #expect(abs(samples - 44_580) <= 2, "\(read)")
    }

    @Test func observableRecognizer() throws {
        let runs = try bothFaces("ObservableRecognizer")
        for run in runs {
            MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected, maximumWordErrorRate: 0)
            let observed = run.lines(prefixed: "OBSERVED: ")
            #expect(observed.contains { $0.hasPrefix("recognizing") }, "\(run.output)")
            #expect(observed.contains { $0.hasPrefix("finished") }, "\(run.output)")
        }
    }

    @Test func sendableAudioFile() throws {
        let runs = try bothFaces("SendableAudioFile")
        for run in runs {
            MigrationExpectations.expectEquivalent(run.outcome(.legacy), to: expected, maximumWordErrorRate: 0)
            #expect(run.lines(prefixed: "SHARED: ") == ["44580 of 44580 frames by 2 tasks"], "\(run.output)")
            #expect(run.lines(prefixed: "FED: ") == ["44580 frames"], "\(run.output)")
        }
    }

    /// The clip as 44.1 kHz stereo FLAC (the same speech in both channels).
    static func stereoFLAC(of clip: URL, rate: Double, in folder: URL) throws -> URL {
        let source = try AVAudioFile(forReading: clip)
        let stereo = try #require(AVAudioFormat(standardFormatWithSampleRate: rate, channels: 2))
        let converter = try #require(AVAudioConverter(from: source.processingFormat, to: stereo))
        let url = folder.appendingPathComponent("clip-44k-stereo.flac")
        let output = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatFLAC, AVSampleRateKey: rate,
                                                                AVNumberOfChannelsKey: 2, AVLinearPCMBitDepthKey: 16])
        let input = try #require(AVAudioPCMBuffer(pcmFormat: source.processingFormat, frameCapacity: 4_096))
        let converted = try #require(AVAudioPCMBuffer(pcmFormat: stereo, frameCapacity: 16_384))
        while true {
            var error: NSError?
            let status = converter.convert(to: converted, error: &error) { _, inputStatus in
                guard (try? source.read(into: input)) != nil, input.frameLength > 0 else {
                    inputStatus.pointee = .endOfStream
                    return nil
                }
                inputStatus.pointee = .haveData
                return input
            }
            if let error { throw error }
            if converted.frameLength > 0 { try output.write(from: converted) }
            if status == .endOfStream { break }
        }
        output.close()
        return url
    }
}
