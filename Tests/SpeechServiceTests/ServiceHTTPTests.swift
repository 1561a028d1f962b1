import Foundation
import SpeechEngine
@testable import SpeechService
import TestSupport
import Testing

/// The HTTP endpoint's refusals and health, checked with curl against a
/// service on an ephemeral port. None of these loads the model: every
/// request is refused before transcription.
@Suite struct ServiceHTTPTests {
    @Test func healthAnswersWithTheModelAndTheQueue() async throws {
        let fixture = try ServiceFixture()
        let answer = try await fixture.curl("/health")
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/json")
        let json = try answer.json()
        #expect(json["status"] as? String == "ok")
        #expect(json["model"] as? String == "whisper-tiny.en")
        #expect(json["running"] as? Int == 0)
    }

    @Test func unknownPathsAndMethodsAreRefusedWithJSON() async throws {
        let fixture = try ServiceFixture()
        let missing = try await fixture.curl("/v2/nothing")
        #expect(missing.status == 404)
        #expect(missing.errorCode == "not_found")
        let wrongMethod = try await fixture.curl("/v1/audio/transcriptions")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.errorCode == "method_not_allowed")
    }

    @Test func aFormWithoutAFileIsA400NamingTheField() async throws {
        let fixture = try ServiceFixture()
        let answer = try await fixture.curl("/v1/audio/transcriptions", ["-F", "model=whisper-1"])
        #expect(answer.status == 400)
        #expect(answer.errorCode == "missing_file")
        let error = try #require(try answer.json()["error"] as? [String: Any])
        #expect(error["param"] as? String == "file")
        #expect(error["type"] as? String == "invalid_request_error")
        #expect((error["message"] as? String)?.contains("-F file=@") == true)
    }

    @Test(arguments: [
        (["response_format=xml"], "invalid_response_format"),
        (["temperature=3"], "invalid_temperature"),
        (["temperature=warm"], "invalid_temperature"),
        (["model=whisper-large-v9"], "model_not_found"),
        (["language=sv"], "unsupported_language"),  // the English-only model
        (["language=klingon"], "unsupported_language"),
        (["timestamp_granularities[]=sentence", "response_format=verbose_json"], "invalid_timestamp_granularity"),
        (["timestamp_granularities[]=word"], "invalid_timestamp_granularity"),  // needs verbose_json
        (["stream=maybe"], "invalid_stream"),
    ])
    func badFieldsAreA400WithTheirCode(fields: [String], code: String) async throws {
        let fixture = try ServiceFixture()
        let audio = try fixture.silenceFile(seconds: 1)
        let answer = try await fixture.curl("/v1/audio/transcriptions",
                                      ["-F", "file=@\(audio.path)"] + fields.flatMap { ["-F", $0] })
        #expect(answer.status == 400, "\(answer.text)")
        #expect(answer.errorCode == code, "\(answer.text)")
    }

    @Test func undecodableAudioIsA400() async throws {
        let fixture = try ServiceFixture()
        let junk = try fixture.junkFile(byteCount: 5000, name: "notes.txt")
        let answer = try await fixture.curl("/v1/audio/transcriptions", ["-F", "file=@\(junk.path)"])
        #expect(answer.status == 400)
        #expect(answer.errorCode == "invalid_audio")
        let message = try #require((try answer.json()["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("notes.txt"))
        #expect(!message.contains("speech-serve-"), "the temporary path stays inside the service: \(message)")
    }

    @Test func audioLongerThanTheLimitIsA400() async throws {
        let fixture = try ServiceFixture { $0.maxDurationSeconds = 2 }
        let audio = try fixture.silenceFile(seconds: 3)
        let answer = try await fixture.curl("/v1/audio/transcriptions", ["-F", "file=@\(audio.path)"])
        #expect(answer.status == 400)
        #expect(answer.errorCode == "audio_too_long")
    }

    @Test func anUploadOverTheLimitIsA413WithOrWithoutALength() async throws {
        let fixture = try ServiceFixture { $0.maxUploadBytes = 1024 * 1024 }
        let big = try fixture.junkFile(byteCount: 3 * 1024 * 1024)
        let declared = try await fixture.curl("/v1/audio/transcriptions", ["-F", "file=@\(big.path)"])
        #expect(declared.status == 413)
        #expect(declared.errorCode == "file_too_large")
        let chunked = try await fixture.curl("/v1/audio/transcriptions",
                                       ["-H", "Transfer-Encoding: chunked", "-F", "file=@\(big.path)"])
        #expect(chunked.status == 413)
        #expect(chunked.errorCode == "file_too_large")
        // The service is still there.
        let health = try await fixture.curl("/health")
        #expect(health.status == 200)
    }

    @Test func aBodyThatIsNotAFormIsA400() async throws {
        let fixture = try ServiceFixture()
        let audio = try fixture.silenceFile(seconds: 1)
        let answer = try await fixture.curl("/v1/audio/transcriptions",
                                      ["-H", "Content-Type: audio/wav", "--data-binary", "@\(audio.path)"])
        #expect(answer.status == 400)
        #expect(answer.errorCode == "invalid_content_type")
    }

    @Test func aTakenPortIsATypedStartError() async throws {
        let fixture = try ServiceFixture()
        var configuration = ServiceConfiguration()
        configuration.port = fixture.service.port
        let second = RecognitionService(configuration: configuration) { throw EngineError(.modelNotFound, "unused") }
        #expect(throws: ServeError.self) { try second.start() }
    }
}
