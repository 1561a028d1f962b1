import Foundation
import Speech
import SpeechEngine
@testable import SpeechService
import TestSupport
import Testing

/// The service on the real model: the HTTP formats checked with curl, and
/// the Speech faces through the socket against the same faces in process.
@Suite(.enabled(if: Models.testsEnabled, Models.disabledReason), .serialized)
struct ServiceModelTests {
    static let clip = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav")

    @Test func everyResponseFormatCarriesTheInProcessTranscript() async throws {
        let fixture = try ServiceFixture()
        let expected = try Models.transcriber(.whisperTinyEn)
            .transcribe(file: Self.clip, options: { var o = TranscriptionOptions(); o.language = "en"; o.wordTimestamps = false; return o }())
        let text = expected.text.trimmingCharacters(in: .whitespaces)
        #expect(text.lowercased().contains("ask not what your country"))
        let form = ["-F", "file=@\(Self.clip.path)", "-F", "model=whisper-1"]

        let json = try await fixture.curl("/v1/audio/transcriptions", form)
        #expect(json.status == 200)
        #expect(try json.json()["text"] as? String == text)

        let plain = try await fixture.curl("/v1/audio/transcriptions", form + ["-F", "response_format=text"])
        #expect(plain.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(plain.text == text + "\n")

        let srt = try await fixture.curl("/v1/audio/transcriptions", form + ["-F", "response_format=srt"])
        let srtCues = try SubtitleCheck.srt(srt.text)
        #expect(srtCues.map(\.text).joined(separator: " ") == expected.segments.map { $0.text.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " "))

        let vtt = try await fixture.curl("/v1/audio/transcriptions", form + ["-F", "response_format=vtt"])
        #expect(vtt.headers["content-type"]?.hasPrefix("text/vtt") == true)
        let vttCues = try SubtitleCheck.vtt(vtt.text)
        #expect(vttCues.map(\.start) == srtCues.map(\.start))
        #expect(vttCues.map(\.text) == srtCues.map(\.text))

        let verbose = try await fixture.curl("/v1/audio/transcriptions", form + [
            "-F", "response_format=verbose_json", "-F", "timestamp_granularities[]=word",
            "-F", "timestamp_granularities[]=segment"])
        let body = try verbose.json()
        #expect(body["language"] as? String == "english")
        #expect(body["task"] as? String == "transcribe")
        #expect(abs((body["duration"] as? Double ?? 0) - 11.0) < 0.1)
        let segments = try #require(body["segments"] as? [[String: Any]])
        #expect(segments.count == expected.segments.count)
        let words = try #require(body["words"] as? [[String: Any]])
        #expect(words.count >= 20)
        let starts = words.compactMap { $0["start"] as? Double }
        #expect(starts.count == words.count && zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(words.map { $0["word"] as? String ?? "" }.joined(separator: " ").lowercased().contains("fellow americans"))
    }

    @Test func streamingSendsFinalEventsThenDone() async throws {
        let fixture = try ServiceFixture()
        let answer = try await fixture.curl("/v1/audio/transcriptions",
                                            ["-N", "-F", "file=@\(Self.clip.path)", "-F", "stream=true"])
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "text/event-stream")
        let events = answer.text.components(separatedBy: "\n\n").filter { !$0.isEmpty }
        let names = events.compactMap { $0.split(separator: "\n").first?.replacingOccurrences(of: "event: ", with: "") }
        #expect(names.last == "done", "\(answer.text)")
        #expect(names.contains("final"))
        #expect(!names.contains("error"))
        #expect(answer.text.lowercased().contains("ask not what your country"))
    }

    @Test func aFullQueueIsA503WithRetryAfter() async throws {
        let fixture = try ServiceFixture { $0.maxQueue = 0 }
        let form = ["-F", "file=@\(Self.clip.path)"]
        async let first = fixture.curl("/v1/audio/transcriptions", form)
        try await Task.sleep(nanoseconds: 300_000_000)
        let second = try await fixture.curl("/v1/audio/transcriptions", form)
        #expect(second.status == 503)
        #expect(second.errorCode == "queue_full")
        #expect(second.headers["retry-after"] == "1")
        #expect(try await first.status == 200)
    }

    // MARK: The faces through the socket

    /// What a face reported, in order: partial/final texts, then the end.
    struct Trace: Equatable {
        var events: [String] = []
    }

    /// The legacy face: a URL request's results through the handler.
    static func legacyTrace() async throws -> Trace {
        let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
        recognizer.queue = OperationQueue()
        let request = SFSpeechURLRecognitionRequest(url: clip)
        return await withCheckedContinuation { continuation in
            let trace = Locked(Trace())
            recognizer.recognitionTask(with: request) { result, error in
                if let result {
                    trace.update { $0.events.append((result.isFinal ? "final: " : "partial: ") + result.bestTranscription.formattedString) }
                    if result.isFinal { continuation.resume(returning: trace.value) }
                } else if let error {
                    trace.update { $0.events.append("error: \((error as NSError).domain) \((error as NSError).code)") }
                    continuation.resume(returning: trace.value)
                }
            }
        }
    }

    /// The modern face: a SpeechAnalyzer over the file with a progressive transcriber.
    static func modernTrace() async throws -> Trace {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
        let collector = Task {
            var trace = Trace()
            for try await result in transcriber.results {
                trace.events.append((result.isFinal ? "final: " : "volatile: ") + String(result.text.characters))
            }
            return trace
        }
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        if let last = try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: clip)) {
            try await analyzer.finalizeAndFinish(through: last)
        }
        return try await collector.value
    }

    @Test func theFacesGiveTheSameResultsInProcessAndThroughTheService() async throws {
        let inProcessLegacy = try await Self.legacyTrace()
        let inProcessModern = try await Self.modernTrace()
        let fixture = try ServiceFixture(model: .whisperBase)
        setenv("SPEECHCOMPAT_SERVICE", "unix:\(fixture.socketPath)", 1)
        defer { unsetenv("SPEECHCOMPAT_SERVICE") }
        let servedLegacy = try await Self.legacyTrace()
        let servedModern = try await Self.modernTrace()
        #expect(inProcessLegacy.events.last?.hasPrefix("final: ") == true)
        #expect(inProcessLegacy.events.last?.lowercased().contains("ask not what your country") == true)
        #expect(servedLegacy.events.last == inProcessLegacy.events.last)
        #expect(servedModern.events.filter { $0.hasPrefix("final") } == inProcessModern.events.filter { $0.hasPrefix("final") })
        // Volatile results depend on timing (how far decoding got when a pass
        // ran); the finals and their order do not. Compare the event kinds' order too.
        #expect(servedLegacy.events.map { $0.prefix(5) }.last == inProcessLegacy.events.map { $0.prefix(5) }.last)
        let health = try await fixture.curl("/health")
        #expect(try health.json()["sessions"] as? Int == 0)
    }

    @Test func aServiceThatIsGoneIsATypedErrorForTheFace() async throws {
        let folder = try Fixtures.temporaryDirectory("speech-serve-gone")
        defer { try? FileManager.default.removeItem(at: folder) }
        setenv("SPEECHCOMPAT_SERVICE", "unix:\(folder.appendingPathComponent("nobody.sock").path)", 1)
        defer { unsetenv("SPEECHCOMPAT_SERVICE") }
        let trace = try await Self.legacyTrace()
        #expect(trace.events == ["error: kAFAssistantErrorDomain 203"], "\(trace.events)")
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        await #expect(throws: SFSpeechError.self) {
            _ = try await analyzer.analyzeSequence(from: try AVAudioFile(forReading: Self.clip))
        }
    }
}

/// A value behind a lock, for handlers called on other threads.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
