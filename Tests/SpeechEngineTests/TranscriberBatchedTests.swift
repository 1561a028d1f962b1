import Testing
@testable import SpeechEngine

/// When batched decoding decodes a chunk again: its text too short for its
/// length (`Transcriber+Batched.swift`, the model test on joined read speech).
@Suite struct TranscriberBatchedTests {
    @Test func aLongChunkWithAClauseOfTextHasSkippedSpeech() {
        // The measured case: 25 s of read speech decoded as about 15 tokens.
        #expect(TranscriptionSession.skipsSpeech(textTokens: 15, chunkSeconds: 25))
        #expect(TranscriptionSession.skipsSpeech(textTokens: 7, chunkSeconds: 8))
    }

    @Test func slowSpeechAndShortChunksAreLeftAlone() {
        // Slow, paused speech: 2 tokens a second is half of read speech's rate.
        #expect(!TranscriptionSession.skipsSpeech(textTokens: 50, chunkSeconds: 25))
        #expect(!TranscriptionSession.skipsSpeech(textTokens: 8, chunkSeconds: 8))
        // "Yes." over a 6 s chunk: a short chunk's few words can be all there is.
        #expect(!TranscriptionSession.skipsSpeech(textTokens: 2, chunkSeconds: 6))
    }
}
