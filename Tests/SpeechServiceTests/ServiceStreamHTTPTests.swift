import Foundation
@testable import SpeechService
import TestSupport
import Testing

/// The live-stream endpoint's refusals, with curl, before any model is
/// loaded: bad parameters at creation, unknown streams on every route,
/// methods a route does not take.
@Suite struct ServiceStreamHTTPTests {
    @Test(arguments: [
        ("encoding=mp3", "invalid_encoding"),
        ("sample_rate=fast", "invalid_sample_rate"),
        ("sample_rate=1000", "invalid_sample_rate"),
        ("channels=0", "invalid_channels"),
        ("language=sv", "unsupported_language"),  // the English-only model
        ("model=whisper-large-v9", "model_not_found"),
    ])
    func badParametersAreA400WithTheirCode(query: String, code: String) async throws {
        let fixture = try ServiceFixture()
        let (answer, id) = try await fixture.createStream(query)
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.errorCode == code, "\(answer.text)")
        #expect(id == nil)
    }

    @Test func parametersMayComeAsAFormToo() async throws {
        let fixture = try ServiceFixture()
        let answer = try await fixture.curl(RecognitionService.streamsPath, ["-F", "encoding=ogg"])
        #expect(answer.status == 400)
        #expect(answer.errorCode == "invalid_encoding")
    }

    @Test func anUnknownStreamIsA404OnEveryRoute() async throws {
        let fixture = try ServiceFixture()
        let base = RecognitionService.streamsPath + "/stream_nobody"
        let audio = try await fixture.sendAudio("stream_nobody", Data(repeating: 0, count: 3200))
        #expect(audio.status == 404)
        #expect(audio.errorCode == "stream_not_found")
        #expect((try? audio.json()["error"] as? [String: Any])?["message"] as? String ?? "" != "")
        for (path, arguments) in [(base, [String]()), (base + "/events", []), (base + "/finish", ["-X", "POST"]),
                                  (base, ["-X", "DELETE"])] {
            let answer = try await fixture.curl(path, arguments)
            #expect(answer.status == 404, "\(path) \(arguments)")
            #expect(answer.errorCode == "stream_not_found", "\(path) \(arguments): \(answer.text)")
        }
        // The service is still there.
        #expect(try await fixture.curl("/health").status == 200)
    }

    @Test func methodsARouteDoesNotTakeAre405() async throws {
        let fixture = try ServiceFixture()
        let collection = try await fixture.curl(RecognitionService.streamsPath)
        #expect(collection.status == 405)
        #expect(collection.errorCode == "method_not_allowed")
        let deleteAll = try await fixture.curl(RecognitionService.streamsPath, ["-X", "DELETE"])
        #expect(deleteAll.status == 405)
        let unknownVerb = try await fixture.curl(RecognitionService.streamsPath + "/x/rewind", ["-X", "POST"])
        #expect(unknownVerb.status == 404)
    }

    @Test func healthCountsStreamsAndShowsTheAllocator() async throws {
        let fixture = try ServiceFixture()
        let health = try await fixture.curl("/health").json()
        #expect(health["streams"] as? Int == 0)
        let memory = try #require(health["memory"] as? [String: Any])
        let inUse = try #require((memory["in_use_mb"] as? NSNumber)?.doubleValue)
        // ThreadSanitizer (Scripts/tsan.sh sets TSAN_OPTIONS) replaces malloc,
        // and glibc's mallinfo2 then counts nothing: zero is its true answer.
        if ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil { #expect(inUse > 0) }
        #expect(memory["held_free_mb"] is Double)
    }

    @Test func routesSplitTheStreamPath() {
        #expect(RecognitionService.streamPath("/v1/audio/streams") == [])
        #expect(RecognitionService.streamPath("/v1/audio/streams/abc") == ["abc"])
        #expect(RecognitionService.streamPath("/v1/audio/streams/abc/events") == ["abc", "events"])
        #expect(RecognitionService.streamPath("/v1/audio/streams/a/b/c") == nil)
        #expect(RecognitionService.streamPath("/v1/audio/streamsX") == nil)
        #expect(RecognitionService.streamPath("/v1/audio/transcriptions") == nil)
    }
}
