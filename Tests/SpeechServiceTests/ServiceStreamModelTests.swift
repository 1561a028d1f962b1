import Foundation
import SpeechEngine
@testable import SpeechService
import TestSupport
import Testing

/// The live-stream endpoint on the real model (whisper-tiny.en), driven by
/// curl the way a capture program would: audio in chunks while events come
/// back, then its limits and errors on a stream that exists.
@Suite(.enabled(if: Models.testsEnabled, Models.disabledReason), .serialized)
struct ServiceStreamModelTests {
    static let clip = ServiceModelTests.clip

    static func normalized(_ text: String) -> String {
        text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == " " }
            .map(String.init).joined().split(separator: " ").joined(separator: " ")
    }

    /// The in-process streaming recognizer on the same samples, options and
    /// model: its final events.
    static func inProcessFinals(_ samples: [Float]) async throws -> [StreamingHypothesis] {
        var options = StreamingOptions()
        options.transcription.language = "en"
        let recognizer = StreamingRecognizer(accurate: try Models.transcriber(.whisperTinyEn), options: options)
        recognizer.append(samples)
        recognizer.finish()
        var finals: [StreamingHypothesis] = []
        for await event in recognizer.events { if case .final(let hypothesis) = event { finals.append(hypothesis) } }
        return finals
    }

    @Test func audioInChunksGivesEventsInOrderWhileItArrivesAndTheUploadsTranscript() async throws {
        let fixture = try ServiceFixture()
        let samples = try AudioDecoder.decode(contentsOf: Self.clip)
        let (created, id) = try await fixture.createStream("encoding=s16le&sample_rate=16000&language=en")
        #expect(created.status == 201, "\(created.text)")
        #expect(created.headers["location"] == RecognitionService.streamsPath + "/\(id ?? "")")
        let streamID = try #require(id)
        let follower = try fixture.followEvents(streamID)
        let bytes = ServiceFixture.s16le(samples)
        // Eight requests of ~1.4 s each, paced; the first half must already give results.
        let pieces = stride(from: 0, to: bytes.count, by: bytes.count / 8 + 1).map {
            bytes.subdata(in: $0..<min(bytes.count, $0 + bytes.count / 8 + 1))
        }
        for (index, piece) in pieces.enumerated() {
            let answer = try await fixture.sendAudio(streamID, piece, finishing: index == pieces.count - 1)
            #expect(answer.status == 200, "\(answer.text)")
            if index == pieces.count / 2 {
                let early = await follower.waitFor(seconds: 60) { $0.name == "volatile" || $0.name == "final" }
                #expect(early, "no event while half the audio was still to come")
            }
        }
        let events = await follower.waitForEnd()
        #expect(events.map(\.id) == Array(1...max(1, events.count)), "ids in order from 1")
        #expect(events.last?.name == "done", "\(events.map(\.name))")
        #expect(events.dropLast().allSatisfy { $0.name == "volatile" || $0.name == "final" })
        let finals = events.filter { $0.name == "final" }
        #expect(!finals.isEmpty)
        for (a, b) in zip(finals, finals.dropFirst()) { #expect(a.end <= b.start + 1e-6) }
        let done = try #require(events.last)
        #expect(done.text == finals.map(\.text).joined(separator: " "))
        #expect(abs((done.data["duration"] as? Double ?? 0) - Double(samples.count) / 16_000) < 0.01)

        // Same finals (text and times) as the in-process recognizer.
        let expected = try await Self.inProcessFinals(samples)
        #expect(finals.map(\.text) == expected.map(\.text))
        #expect(zip(finals, expected).allSatisfy { abs($0.start - $1.startSeconds) < 0.002 && abs($0.end - $1.endSeconds) < 0.002 })
        // And the upload's transcript, word for word.
        let upload = try await fixture.curl("/v1/audio/transcriptions", ["-F", "file=@\(Self.clip.path)"])
        let uploaded = try #require(try upload.json()["text"] as? String)
        #expect(Self.normalized(done.text) == Self.normalized(uploaded), "\(done.text) | \(uploaded)")
        #expect(Self.normalized(done.text).contains("ask not what your country can do for you"))

        // After the end: more audio is a 409, the log still replays, from Last-Event-ID too.
        let late = try await fixture.sendAudio(streamID, Data(count: 320))
        #expect(late.status == 409)
        #expect(late.errorCode == "stream_finished")
        let replay = try await fixture.curl(RecognitionService.streamsPath + "/\(streamID)/events",
                                            ["-H", "Last-Event-ID: \(events.count - 1)"])
        #expect(ServiceFixture.parseEvents(replay.text).map(\.name) == ["done"])
        #expect(try await fixture.curl("/health").json()["streams"] as? Int == 0)
    }

    @Test func aWAVStreamAtAnotherRateGivesTheSameWords() async throws {
        let fixture = try ServiceFixture()
        let wav = fixture.folder.appendingPathComponent("jfk-44k-stereo.wav")
        try SyntheticAudio.run("/usr/bin/sox", [Self.clip.path, "-r", "44100", "-c", "2", "-b", "16", wav.path])
        let (_, id) = try await fixture.createStream("encoding=wav")
        let streamID = try #require(id)
        let follower = try fixture.followEvents(streamID)
        // One request with a chunked body read from a pipe-like upload (curl -T), as `arecord | curl` sends it.
        let answer = try await fixture.curl(RecognitionService.streamsPath + "/\(streamID)/audio?finish=true",
                                            ["-X", "POST", "-H", "Transfer-Encoding: chunked", "-T", wav.path])
        #expect(answer.status == 200, "\(answer.text)")
        #expect(try answer.json()["sample_rate"] as? Int == 44_100)
        let events = await follower.waitForEnd()
        #expect(events.last?.name == "done", "\(events.map(\.name))")
        #expect(Self.normalized(events.last.map(\.text) ?? "").contains("ask not what your country can do for you"))
    }

    @Test func limitsEndAStreamWithItsCodeKeepingTheTextSoFar() async throws {
        let fixture = try ServiceFixture {
            $0.maxStreams = 1
            $0.maxStreamSeconds = 4
            $0.streamIdleTimeoutSeconds = 2
        }
        let samples = try AudioDecoder.decode(contentsOf: Self.clip)
        let (_, id) = try await fixture.createStream()
        let streamID = try #require(id)
        // One stream at a time.
        let second = try await fixture.createStream()
        #expect(second.answer.status == 503)
        #expect(second.answer.errorCode == "too_many_streams")
        #expect(second.answer.headers["retry-after"] == "1")
        // 11 s of audio into a 4 s stream: refused past the limit; finals for the first 4 s, then the error.
        let follower = try fixture.followEvents(streamID)
        let answer = try await fixture.sendAudio(streamID, ServiceFixture.s16le(samples))
        #expect(answer.status == 400)
        #expect(answer.errorCode == "stream_too_long")
        let events = await follower.waitForEnd()
        #expect(events.last?.name == "error")
        #expect(events.last?.errorCode == "stream_too_long")
        let kept = Self.normalized(events.last.map(\.text) ?? "")
        #expect(kept.contains("fellow americans"), "\(kept)")
        #expect(events.filter { $0.name == "final" }.allSatisfy { $0.end <= 4.05 })

        // The slot is free again; a stream left without audio ends by the idle timeout.
        let (_, idle) = try await fixture.createStream()
        let idleID = try #require(idle)
        _ = try await fixture.sendAudio(idleID, ServiceFixture.s16le(Array(samples.prefix(16_000 * 3))))
        let idleEvents = await (try fixture.followEvents(idleID)).waitForEnd(seconds: 60)
        #expect(idleEvents.last?.errorCode == "idle_timeout", "\(idleEvents.map(\.name))")
        let idleKept = Self.normalized(idleEvents.last.map(\.text) ?? "")
        #expect(idleKept.contains("fellow"), "\(idleKept)")
    }

    @Test func deleteCancelsAndAConcurrentAudioRequestIsA409() async throws {
        let fixture = try ServiceFixture()
        let samples = try AudioDecoder.decode(contentsOf: Self.clip)
        let (_, id) = try await fixture.createStream()
        let streamID = try #require(id)
        // A slow sender (4 kB/s) holds the stream; a second sender is refused meanwhile.
        async let slow = fixture.sendAudio(streamID, ServiceFixture.s16le(Array(samples.prefix(16_000 * 2))),
                                           extra: ["--limit-rate", "4k"])
        try await Task.sleep(for: .milliseconds(1500))
        let concurrent = try await fixture.sendAudio(streamID, Data(count: 3200))
        #expect(concurrent.status == 409)
        #expect(concurrent.errorCode == "stream_busy")
        #expect(try await slow.status == 200)
        let cancelled = try await fixture.curl(RecognitionService.streamsPath + "/\(streamID)", ["-X", "DELETE"])
        #expect(cancelled.status == 200)
        let events = await (try fixture.followEvents(streamID)).waitForEnd(seconds: 60)
        #expect(events.last?.errorCode == "cancelled", "\(events.map(\.name))")
    }
}
