import Foundation
@testable import SpeechEngine
import TestSupport
import Testing

/// The screened logits (`LogitProjection`) on real speech: whisper-base as
/// the default loads it and the same model without the screen give the same
/// transcripts, beam 5, window by window (one window's 5 beams: the
/// contenders carry the unscreened product's bits, only the log-softmax's
/// normaliser differs) on read speech and the hard mfa-tests clips, and
/// batched (the LibriSpeech clips joined: 3 chunks of 5 beams, 15 rows,
/// whose unscreened product sums in another order).
@Suite("Screened logits (whisper-base)", .serialized, .enabled(if: Models.testsEnabled, Models.disabledReason))
struct LogitProjectionModelTests {
    @Test func screenedLogitsGiveTheUnscreenedTranscripts() throws {
        let screened = try Models.transcriber()
        #expect(screened.model.decoder.projection.screen != nil)
        let plain = Transcriber(model: try WhisperModel(directory: screened.model.directory, computeType: .default,
                                                        screensLogits: false))
        #expect(plain.model.decoder.projection.screen == nil)
        let entries = try CorpusManifest.entries(set: "librispeech-dev-clean")
            + CorpusManifest.entries(set: "mfa-tests").prefix(8)
        #expect(entries.count == 13)
        for entry in entries {
            let expected = try plain.transcribe(file: entry.audioURL).text
            #expect(try screened.transcribe(file: entry.audioURL).text == expected, "\(entry.id)")
        }
        let (samples, _) = try TranscriberBatchedModelTests.joinedClips()
        let options = TranscriberBatchedModelTests.options(batchSize: 8)
        let expected = try plain.transcribe(samples: samples, options: options)
        #expect(expected.segments.count >= 3)
        #expect(try screened.transcribe(samples: samples, options: options).text == expected.text)
    }
}
