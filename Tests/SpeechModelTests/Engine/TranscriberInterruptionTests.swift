import Foundation
@testable import SpeechEngine
import TestSupport
import Testing

/// The streaming recognizer stops a volatile pass when the input closes; the
/// pass must then end with a typed cancellation, never with a partial text.
@Suite(.enabled(if: Models.testsEnabled, Models.disabledReason))
struct TranscriberInterruptionModelTests {
    let jfk = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav")

    @Test func aRaisedInterruptionStopsWithCancelledInsteadOfAPartialTranscript() throws {
        let transcriber = try Models.transcriber(.whisperTinyEn)
        let samples = try AudioDecoder.decode(contentsOf: jfk)
        var options = TranscriptionOptions.greedy
        options.language = "en"
        let interruption = Interruption()
        interruption.raise()
        #expect(throws: EngineError.self) {
            try transcriber.transcribe(samples: samples, options: options, interruption: interruption)
        }
        do {
            _ = try transcriber.transcribe(samples: samples, options: options, interruption: interruption)
        } catch let error as EngineError {
            #expect(error.code == .cancelled)
        }
        // Not raised: the same call transcribes.
        let transcript = try transcriber.transcribe(samples: samples, options: options, interruption: Interruption())
        #expect(transcript.text.contains("ask not what your country can do for you"))
    }
}
