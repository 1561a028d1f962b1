import Foundation
import SpeechEngine
import Testing
import TestSupport
@testable import Speech

/// Whether the real-model tests run: whisper-base installed and asked for.
let modelTestsEnabled = ProcessInfo.processInfo.environment["SPEECHCOMPAT_MODEL_TESTS"] == "1"
    && AssetStore.default.isInstalled(.whisperBase)

/// The modern face through the real engine on real clips (whisper-base).
/// Slow in debug builds: enabled when whisper-base is installed and
/// `SPEECHCOMPAT_MODEL_TESTS=1` (Scripts/test.sh sets it for release runs).
@Suite("Modern face on the real engine",
       .enabled(if: modelTestsEnabled, "set SPEECHCOMPAT_MODEL_TESTS=1 with whisper-base installed"),
       .serialized)
struct ModernEngineTests {
    private static let clip = Fixtures.corpusClip("audio/pocketsphinx/ps_goforward.wav")

    private func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.map(String.init)
    }

    @Test("a file through analyzeSequence(from:) gives the clip's transcript with timed, confident words")
    func fileTranscript() async throws {
        let transcriber = SpeechTranscriber(locale: englishUS, transcriptionOptions: [],
                                            reportingOptions: [.alternativeTranscriptions],
                                            attributeOptions: [.audioTimeRange, .transcriptionConfidence])
        if let request = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
            try await request.downloadAndInstall()
        }
        let results = collect(transcriber.results)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let last = try #require(try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: Self.clip)))
        try await analyzer.finalizeAndFinish(through: last)
        let collected = try #require(await value(of: results, within: 120))
        #expect(collected.error == nil)
        let text = collected.elements.map { String($0.text.characters) }.joined()
        #expect(words(text) == ["go", "forward", "ten", "meters"] || words(text) == ["go", "forward", "10", "meters"])
        var previous = CMTime.zero
        for result in collected.elements {
            #expect(result.isFinal)
            #expect(!result.alternatives.isEmpty)
            for run in result.text.runs {
                guard let range = run.audioTimeRange else { continue }
                #expect(range.start >= previous && range.end <= last)
                previous = range.start
                let confidence = try #require(run.transcriptionConfidence)
                #expect(confidence > 0 && confidence <= 1)
            }
        }
    }
}
