import Foundation
@testable import SpeechEngine
import Testing
import TestSupport
@testable import SpeechCLI

@Suite struct StreamFeederTests {
    static let jfk = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav")

    static func chunks(_ source: StreamFeeder.Source) throws -> [[Float]] {
        var reader = try StreamFeeder.ChunkReader(source)
        var chunks: [[Float]] = []
        while let chunk = try reader.next() { chunks.append(chunk) }
        return chunks
    }

    @Test func aFileIsFedIn100MillisecondChunksThatMakeTheDecodedFile() throws {
        let decoded = try AudioDecoder.decode(contentsOf: Self.jfk)
        let fromFile = try Self.chunks(.file(Self.jfk))
        // 176,000 samples: 110 chunks of 1,600, across the reader's 65,536-sample blocks.
        #expect(fromFile.count == 110)
        #expect(fromFile.allSatisfy { $0.count == StreamFeeder.chunkSampleCount })
        #expect(Array(fromFile.joined()) == decoded)
        #expect(try Self.chunks(.samples(decoded)) == fromFile)
    }

    @Test func theLastChunkMayBeShort() throws {
        let samples = (0..<4_000).map { Float($0) / 4_000 }
        let chunks = try Self.chunks(.samples(samples))
        #expect(chunks.map(\.count) == [1_600, 1_600, 800])
        #expect(Array(chunks.joined()) == samples)
    }

    @Test func aMissingFileFailsBeforeTheFirstChunk() {
        let missing = URL(fileURLWithPath: "/nonexistent/speechcompat/stream.wav")
        #expect(throws: EngineError.self) { _ = try StreamFeeder.ChunkReader(.file(missing)) }
    }

    /// A recognizer whose passes hear nothing: the feeder's own bookkeeping without a model.
    static func silentRecognizer() -> StreamingRecognizer {
        let nothing: StreamingPipeline.Decode = { samples, _, _, _ in
            Transcript(segments: [], language: "en", languageProbability: 1,
                       durationSeconds: Double(samples.count) / Transcriber.sampleRate)
        }
        return StreamingRecognizer(options: StreamingOptions(), accurate: nothing, fast: nothing)
    }

    /// Counts the passes of a recognizer whose passes hear nothing and take `delay` each.
    final class PassCount: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.lock(); defer { lock.unlock() }; return count }
        func add() { lock.lock(); count += 1; lock.unlock() }
    }

    static func passCount(pacing: StreamFeeder.Pacing, delay: Double, samples: [Float]) async throws -> Int {
        let passes = PassCount()
        let slow: StreamingPipeline.Decode = { samples, _, _, _ in
            passes.add()
            Thread.sleep(forTimeInterval: delay)
            return Transcript(segments: [], language: "en", languageProbability: 1,
                              durationSeconds: Double(samples.count) / Transcriber.sampleRate)
        }
        let recognizer = StreamingRecognizer(options: StreamingOptions(), accurate: slow, fast: slow)
        _ = try await StreamFeeder(pacing: pacing).run(samples, through: recognizer)
        return passes.value
    }

    /// `eval --stream --live-passes`: stepped pacing runs every pass of a
    /// stream that keeps up, however slow the passes; fast pacing queues the
    /// audio and the recognizer, behind, skips the volatile passes.
    @Test func steppedPacingRunsThePassesOfAStreamThatKeepsUp() async throws {
        let samples = try AudioDecoder.decode(contentsOf: Self.jfk)
        let instant = try await Self.passCount(pacing: .stepped, delay: 0, samples: samples)
        let slow = try await Self.passCount(pacing: .stepped, delay: 0.03, samples: samples)
        let fast = try await Self.passCount(pacing: .fast, delay: 0.03, samples: samples)
        #expect(slow == instant, "the same passes whatever they cost")
        #expect(slow >= 10, "a volatile pass every half second of speech")
        #expect(fast < slow / 2)
    }

    /// The benchmark decodes the input's last 2 s alone (goal 3's bound): the feeder keeps exactly those.
    @Test(arguments: [80_000, 20_000])
    func theLastTwoSecondsFedAreKept(sampleCount: Int) async throws {
        let samples = (0..<sampleCount).map { Float($0 % 1_000) / 1_000 }
        let outcome = try await StreamFeeder(pacing: .fast).run(samples, through: Self.silentRecognizer())
        #expect(outcome.tailSamples == Array(samples.suffix(StreamFeeder.tailSampleCount)))
        #expect(outcome.audioSeconds == Double(sampleCount) / 16_000)
    }
}
