import Foundation
import SpeechEngine

/// `stream=true` on `POST /v1/audio/transcriptions`: the file is decoded by
/// the engine's streaming recognizer and its results go out as server-sent
/// events while decoding proceeds:
///
///     event: volatile   data: {"start":0.0,"end":2.1,"text":"…"}
///     event: final      data: {"start":0.0,"end":4.2,"text":"…"}
///     event: done       data: {"text":"the whole transcript"}
///     event: error      data: {"error":{…}}   (instead of done)
///
/// A client that goes away cancels the recognition.
enum StreamingTranscription {
    /// Reserves a place on the queue (503 if there is none), then answers
    /// with an event stream fed from a worker.
    static func start(_ request: TranscriptionRequest, service: RecognitionService) throws -> HTTPResponse {
        try service.queue.reserve()
        let stream = ResponseStream(keepAliveSeconds: service.keepAliveSeconds)
        let limit = service.configuration.maxDurationSeconds
        Thread.detachNewThread {
            do {
                try service.queue.runReserved {
                    try await run(request, service: service, limitSeconds: limit, into: stream)
                }
            } catch {
                let serviceError = (error as? ServiceError)
                    ?? (error as? EngineError).map(RecognitionService.serviceError)
                    ?? ServiceError(.server, code: "internal_error", "\(error)")
                stream.sendEvent("error", json: encode(ErrorEvent(error: .init(message: serviceError.message,
                                                                               code: serviceError.code))))
            }
            stream.finish()
        }
        return HTTPResponse(status: 200, contentType: "text/event-stream", body: .stream(stream))
    }

    private static func run(_ request: TranscriptionRequest, service: RecognitionService, limitSeconds: Double,
                            into stream: ResponseStream) async throws {
        let samples = try RecognitionService.decode(request, limitSeconds: limitSeconds)
        let recognizer = StreamingRecognizer(accurate: try service.transcriber(),
                                             options: StreamingOptions(transcription: request.options))
        stream.whenAbandoned { recognizer.cancel() }
        recognizer.appendRecording(samples)
        recognizer.finish()
        var finals: [String] = []
        for await event in recognizer.events {
            switch event {
            case .volatile(let hypothesis):
                stream.sendEvent("volatile", json: encode(Span(hypothesis)))
            case .final(let hypothesis):
                finals.append(hypothesis.text)
                stream.sendEvent("final", json: encode(Span(hypothesis)))
            case .failed(let error):
                throw error
            case .finished:
                stream.sendEvent("done", json: encode(Done(text: finals.joined(separator: " "))))
            case .speechDetected, .speechEnded, .committed, .progress:
                break
            }
        }
    }

    private struct Span: Encodable {
        var start: Double
        var end: Double
        var text: String

        init(_ hypothesis: StreamingHypothesis) {
            start = TranscriptionResponse.rounded(hypothesis.startSeconds)
            end = TranscriptionResponse.rounded(hypothesis.endSeconds)
            text = hypothesis.text
        }
    }

    private struct Done: Encodable {
        var text: String
    }

    private struct ErrorEvent: Encodable {
        struct Detail: Encodable {
            var message: String
            var code: String
        }
        var error: Detail
    }

    private static func encode(_ value: some Encodable) -> Data {
        (try? JSONEncoder().encode(value)) ?? Data("{}".utf8)
    }
}
