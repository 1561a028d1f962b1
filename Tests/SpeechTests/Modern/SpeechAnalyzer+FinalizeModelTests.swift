import Foundation
import SpeechEvaluation
import Testing
import TestSupport
@testable import Speech

/// `finalize(through:)` on real speech through the real engine: finals end
/// at the cut, later audio stays volatile, and the whole text is what one
/// uninterrupted run gives.
@Suite("finalize(through:) on the real engine",
       .enabled(if: Models.testsEnabled, Models.disabledReason),
       .serialized)
struct SpeechAnalyzerFinalizeModelTests {
    /// 11.7 s of one continuous read sentence.
    private static let clip = Fixtures.corpusClip("audio/librispeech-dev-clean/2412-153948-0000.wav")
    private static let cut = CMTime(value: 5, timescale: 1)

    /// The clip as 16 kHz mono Float32 buffers of 0.5 s.
    private func buffers() throws -> [AVAudioPCMBuffer] {
        let file = try AVAudioFile(forReading: Self.clip)
        var buffers: [AVAudioPCMBuffer] = []
        while file.framePosition < file.length {
            let buffer = try #require(AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 8_000))
            try file.read(into: buffer)
            if buffer.frameLength == 0 { break }
            buffers.append(buffer)
        }
        return buffers
    }

    /// Streams the clip, finalizing through `cut` after the first 8 s when given.
    private func run(finalizingAt cut: CMTime?) async throws -> [SpeechTranscriber.Result] {
        let transcriber = SpeechTranscriber(locale: englishUS, preset: .timeIndexedProgressiveTranscription)
        let results = collect(transcriber.results)
        let (stream, input) = AsyncStream.makeStream(of: AnalyzerInput.self)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        try await analyzer.start(inputSequence: stream)
        let buffers = try buffers()
        for buffer in buffers.prefix(16) { input.yield(AnalyzerInput(buffer: buffer)) }
        if let cut {
            try await analyzer.finalize(through: cut)
            let range = try #require(await analyzer.volatileRange)
            #expect(range.start >= cut, "volatile range \(range.start.seconds) starts before the cut")
        }
        for buffer in buffers.dropFirst(16) { input.yield(AnalyzerInput(buffer: buffer)) }
        input.finish()
        try await analyzer.finalizeAndFinishThroughEndOfInput()
        let collected = try #require(await value(of: results, within: 300))
        #expect(collected.error == nil)
        return collected.elements
    }

    @Test("finals end at the cut, later audio stays volatile, the whole text equals an uninterrupted run's")
    func finalizeThroughACutInASentence() async throws {
        let whole = try await run(finalizingAt: nil)
        let cutRun = try await run(finalizingAt: Self.cut)
        let finals = cutRun.filter(\.isFinal)
        let first = try #require(finals.first)
        // The first final ends at the cut, or at the end of the word the cut falls in.
        #expect(first.range.end >= Self.cut && first.range.end.seconds < Self.cut.seconds + 0.8,
                "first final ends at \(first.range.end.seconds) s")
        #expect(finals.dropFirst().allSatisfy { $0.range.start >= first.range.end })
        // Audio after the cut was reported as volatile before it was final.
        #expect(cutRun.contains { !$0.isFinal && $0.range.end > first.range.end })
        let joined = { (results: [SpeechTranscriber.Result]) in
            results.filter(\.isFinal).map { String($0.text.characters) }.joined()
        }
        let normalizer = EnglishTextNormalizer()
        #expect(normalizer.normalize(joined(cutRun)) == normalizer.normalize(joined(whole)),
                "cut: \(joined(cutRun))\nwhole: \(joined(whole))")
    }
}
