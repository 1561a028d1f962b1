import Foundation
@testable import Speech
import SpeechEngine
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The faces' service protocol without a model: updates and errors survive
/// the wire exactly, and broken peers end only their session.
@Suite struct ServiceWireTests {
    static func roundTrip(_ update: SessionUpdate) throws -> SessionUpdate? {
        let data = ServiceWire.encodeJSON(ServiceWire.WireUpdate(update))
        return try JSONDecoder().decode(ServiceWire.WireUpdate.self, from: data).update
    }

    @Test func spansCrossTheWireExactly() throws {
        let span = RecognizedSpan(startSeconds: 0.1 + 0.2, endSeconds: 1.0 / 3.0, text: "And so, my fellow",
                                  words: [RecognizedWord(text: " And", startSeconds: 0.3, endSeconds: 0.7000000000000001,
                                                         confidence: 0.123456789)],
                                  alternatives: [(text: "And so", score: -0.25)])
        guard case .final(let final)? = try Self.roundTrip(.final(span)) else { Issue.record("not a final"); return }
        #expect(final == span)
        guard case .volatile(let volatile)? = try Self.roundTrip(.volatile(span)) else { Issue.record("not volatile"); return }
        #expect(volatile == span)
        guard case .committed(let through)? = try Self.roundTrip(.committed(throughSeconds: 2.0 / 7.0)) else {
            Issue.record("not committed"); return
        }
        #expect(through == 2.0 / 7.0)
        guard case .finished? = try Self.roundTrip(.finished) else { Issue.record("not finished"); return }
    }

    @Test func engineErrorsKeepTheirCodeAcrossTheWire() throws {
        let sent = EngineError(.unsupportedLanguage, "No installed model recognizes tlh.")
        guard case .failed(let received)? = try Self.roundTrip(.failed(sent)) else { Issue.record("not failed"); return }
        let engineError = try #require(received as? EngineError)
        #expect(engineError.code == .unsupportedLanguage)
        #expect(engineError.message == sent.message)
        guard case .failed(let cancelled)? = try Self.roundTrip(.failed(CancellationError())) else { return }
        #expect(cancelled is CancellationError)
    }

    @Test func samplesAndTimesAreBitExact() {
        let samples: [Float] = [0, -1, 1, .leastNonzeroMagnitude, 0.333333343]
        #expect(ServiceWire.samples(from: ServiceWire.samplesPayload(samples[...])) == samples)
        #expect(ServiceWire.seconds(from: ServiceWire.secondsPayload(0.1 + 0.2)) == 0.1 + 0.2)
        #expect(ServiceWire.seconds(from: Data([1, 2, 3])) == nil)
    }

    @Test func noServiceAtThePathIsATypedError() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-service-\(UUID().uuidString).sock").path
        #expect {
            _ = try ServiceBackend(socketPath: path, locale: Locale(identifier: "en-US"),
                                   configuration: RecognitionConfiguration())
        } throws: { error in
            (error as? ServiceBackendError)?.code == .unreachable
                && (error as? ServiceBackendError)?.message.contains("speech serve --socket") == true
        }
    }

    @Test func aServiceThatDoesNotAnswerTimesOutWithTheTimeoutCode() throws {
        // A listener that takes connections into its backlog and never answers.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mute-\(UUID().uuidString).sock").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer {
            close(listener)
            unlink(path)
        }
        var address = try #require(ServiceSocket.address(of: path))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(listener, 4) == 0)
        var thrown: (any Error)?
        do {
            _ = try ServiceBackend(socketPath: path, locale: Locale(identifier: "en-US"),
                                   configuration: RecognitionConfiguration(), openTimeoutSeconds: 1)
        } catch {
            thrown = error
        }
        let error = try #require(thrown as? ServiceBackendError)
        #expect(error.code == .timedOut && error.message.contains("within 1 s"))
        let modern = try #require(ErrorMapping.speechError(forAny: error) as? SFSpeechError)
        #expect(modern.code == .timeout)
        let legacy = ErrorMapping.legacyError(forAny: error) as NSError
        #expect(legacy.domain == "kAFAssistantErrorDomain" && legacy.code == 203)
    }

    @Test func aClientThatBreaksTheProtocolIsRefusedAndOnlyItsSessionEnds() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let host = ServiceSessionHost(descriptor: fds[0])
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            host.run()
            ended.signal()
        }
        let client = ServiceSocket(descriptor: fds[1])
        #expect(client.send(.finish))  // a verb before open
        let reply = try #require(client.receive())
        #expect(reply.kind == .rejected)
        #expect(ended.wait(timeout: .now() + hangGuardSeconds) == .success)
        client.close()
    }

    @Test func aClientThatVanishesBeforeOpeningEndsItsSession() {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let host = ServiceSessionHost(descriptor: fds[0])
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            host.run()
            ended.signal()
        }
        close(fds[1])
        #expect(ended.wait(timeout: .now() + hangGuardSeconds) == .success)
    }
}
