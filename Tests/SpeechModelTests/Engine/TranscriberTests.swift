import Foundation
import SpeechEngine
import SpeechEvaluation
import TestSupport
import Testing

/// Golden-transcript tests: the real whisper-base model on real speech.
@Suite("Transcriber (whisper-base)", .serialized, .enabled(if: Models.testsEnabled, Models.disabledReason))
struct TranscriberModelTests {
    static let jfkText = "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country."
    let jfk = Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav")
    let scorer = TranscriptScorer()

    /// Whisper's own text, commas included, from float arithmetic (the
    /// default's int8 encoder reads the same words; `jfkGreedyGivesTheSameWords`).
    @Test func jfkWithBeamSearchIsExactWithWordTimesAndConfidences() throws {
        let transcript = try Models.floatTranscriber().transcribe(file: jfk)
        #expect(transcript.text == Self.jfkText)
        #expect(transcript.language == "en")
        let words = transcript.words
        #expect(words.map(\.word).joined().trimmingCharacters(in: .whitespaces) == Self.jfkText)
        #expect(words.count == 22)
        for word in words {
            #expect(word.startSeconds >= 0 && word.endSeconds <= transcript.durationSeconds + 0.01)
            #expect(word.startSeconds <= word.endSeconds)
            #expect(word.probability > 0 && word.probability <= 1)
        }
        for (a, b) in zip(words, words.dropFirst()) { #expect(a.endSeconds <= b.startSeconds + 0.001) }
        // "country" ends the clip near 10.4 s (the audio is 11 s long).
        let last = try #require(words.last)
        #expect(abs(last.endSeconds - 10.5) < 0.8)
    }

    /// The alignment's path starts at the window's first frame, so without
    /// whisper's clamps the first word would start at 0 s however long the
    /// silence before it. After 2 s of room noise, "And" starts within half
    /// a second of where the detector hears the speech begin, not at 0.
    @Test func aFirstWordAfterSilenceStartsNearTheSpeech() throws {
        let samples = SyntheticAudio.noise(seconds: 2) + (try AudioDecoder.decode(contentsOf: jfk))
        let onset = Double(try #require(SpeechActivityDetector.speechRegions(in: samples).first).lowerBound) / 16_000
        try #require(onset > 2, "the detector hears speech in the noise")
        let transcript = try Models.transcriber().transcribe(samples: samples, options: .greedy)
        let first = try #require(transcript.words.first)
        #expect(first.word.trimmingCharacters(in: .whitespaces) == "And")
        #expect(abs(first.startSeconds - onset) < 0.5, "\(first.startSeconds) s against the speech at \(onset) s")
        #expect(first.endSeconds - first.startSeconds < 1, "\(first.startSeconds)–\(first.endSeconds) s")
    }

    @Test func jfkGreedyGivesTheSameWords() throws {
        let transcript = try Models.transcriber().transcribe(file: jfk, options: .greedy)
        let score = scorer.score(reference: Self.jfkText, hypothesis: transcript.text, languageTag: "en")
        #expect(score.counts.errorCount == 0)
        let beam = try Models.transcriber().transcribe(file: jfk)
        #expect(scorer.score(reference: Self.jfkText, hypothesis: beam.text, languageTag: "en").counts.errorCount == 0,
                "\(beam.text)")
    }

    @Test func libriSpeechDevCleanStaysUnderTenPercentWER() throws {
        let entries = try CorpusManifest.entries(set: "librispeech-dev-clean")
        #expect(entries.count >= 3)
        var counts = ErrorCounts()
        for entry in entries {
            let transcript = try Models.transcriber().transcribe(file: entry.audioURL, options: .greedy)
            counts += scorer.score(reference: entry.referenceText, hypothesis: transcript.text, languageTag: entry.languageTag).counts
        }
        #expect(counts.rate < 0.10, "WER \(counts.rate)")
    }

    @Test(arguments: ["mfa_cold_corpus3", "mfa_mfa_laughter", "mfa_mfa_uhum", "mfa_whisper2"])
    func hardClipsDoNotLoop(id: String) throws {
        let entry = try #require(try CorpusManifest.entries(set: "mfa-tests").first { $0.id == id })
        let transcript = try Models.transcriber().transcribe(file: entry.audioURL)
        let words = transcript.text.lowercased().split(separator: " ").map(String.init)
        let referenceWords = entry.referenceText.split(separator: " ").count
        #expect(words.count <= 2 * referenceWords + 5, "\(transcript.text)")
        // No trigram repeated more than twice in a row (the signature of a decoding loop).
        var longestRun = 0
        for start in 0..<max(0, words.count - 6) {
            var run = 1
            var next = start + 3
            while next + 3 <= words.count && words[next..<(next + 3)] == words[start..<(start + 3)] { run += 1; next += 3 }
            longestRun = max(longestRun, run)
        }
        #expect(longestRun <= 2, "\(transcript.text)")
        for segment in transcript.segments { #expect(segment.compressionRatio <= 2.4) }
    }

    /// A 25 s clip (one short window) whose two paddings hear different words:
    /// `.both` must return the more confident of the two, whole. (On JFK the
    /// views differ by one comma, and the test above sees Whisper's text.)
    @Test func bothPaddingsKeepTheMoreConfidentView() throws {
        let entry = try #require(try CorpusManifest.entries(set: "mfa-tests").first { $0.id == "mfa_cold_corpus3" })
        func transcribe(_ padding: TranscriptionOptions.ShortWindowPadding) throws -> Transcript {
            var options = TranscriptionOptions()
            options.language = "en"
            options.shortWindowPadding = padding
            return try Models.transcriber().transcribe(file: entry.audioURL, options: options)
        }
        let silence = try transcribe(.silence)
        let zeros = try transcribe(.zeros)
        try #require(silence.text != zeros.text, "the two paddings agree on this clip; pick another")
        let confidence = { (transcript: Transcript) in try #require(transcript.segments.first).averageLogProbability }
        let expected = try confidence(silence) >= confidence(zeros) ? silence : zeros
        let both = try transcribe(.both)
        #expect(both.text == expected.text)
        #expect(try confidence(both) == max(try confidence(silence), try confidence(zeros)))
        #expect(both.words.map(\.word) == expected.words.map(\.word))
    }

    @Test func spanishIsDetectedAndTranscribed() throws {
        let entry = try #require(try CorpusManifest.entries(set: "other-lang").first { $0.language == "es" })
        let transcript = try Models.transcriber().transcribe(file: entry.audioURL, options: .greedy)
        #expect(transcript.language == "es")
        #expect(transcript.languageProbability > 0.5)
        let score = scorer.score(reference: entry.referenceText, hypothesis: transcript.text, languageTag: "es")
        #expect(score.counts.rate < 0.35, "\(transcript.text)")
    }

    @Test func contextualPhrasesFixNamesThePlainModelGetsWrong() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let audio = try SyntheticAudio.speak("Please deploy the build to Kubernetes and notify Zyntrix support.",
                                             in: directory)
        var options = TranscriptionOptions()
        options.language = "en"
        let plain = try Models.transcriber().transcribe(file: audio, options: options).text
        #expect(!plain.contains("Kubernetes") || !plain.contains("Zyntrix"), "the plain model already knows both: \(plain)")
        options.phrases = ["Kubernetes", "Zyntrix"]
        let biased = try Models.transcriber().transcribe(file: audio, options: options).text
        #expect(biased.contains("Kubernetes") && biased.contains("Zyntrix"), "\(biased)")
    }

    @Test func punctuationCanBeTurnedOff() throws {
        var options = TranscriptionOptions()
        options.addsPunctuation = false
        let transcript = try Models.transcriber().transcribe(file: jfk, options: options)
        #expect(transcript.text.lowercased() == Self.jfkText.lowercased().filter { $0 != "," && $0 != "." })
        #expect(transcript.words.allSatisfy { !$0.word.contains(",") && !$0.word.contains(".") })
    }

    @Test func beamSearchOffersAlternatives() throws {
        var options = TranscriptionOptions()
        options.alternativeCount = 3
        let transcript = try Models.transcriber().transcribe(file: jfk, options: options)
        #expect(transcript.alternatives.count >= 2)
        let best = try #require(transcript.alternatives.first).text
        #expect(scorer.score(reference: Self.jfkText, hypothesis: best, languageTag: "en").counts.errorCount == 0, "\(best)")
        #expect(Set(transcript.alternatives.map(\.text)).count == transcript.alternatives.count)
    }

    @Test func silenceAndNoiseGiveNoText() throws {
        for samples in [SyntheticAudio.silence(seconds: 8), SyntheticAudio.noise(seconds: 8), []] {
            let transcript = try Models.transcriber().transcribe(samples: samples)
            #expect(transcript.text.isEmpty, "invented: \(transcript.text)")
        }
    }

    @Test func unknownLanguageIsATypedError() throws {
        var options = TranscriptionOptions()
        options.language = "xx"
        #expect(throws: EngineError.self) { try Models.transcriber().transcribe(samples: [0], options: options) }
        do {
            _ = try Models.transcriber().transcribe(samples: [0], options: options)
        } catch let error as EngineError {
            #expect(error.code == .unsupportedLanguage)
        }
    }

    @Test func unreadableFilesAreTypedErrors() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let garbage = directory.appendingPathComponent("garbage.wav")
        try Data((0..<4096).map { UInt8($0 % 251) }).write(to: garbage)
        let missing = directory.appendingPathComponent("missing.wav")
        for url in [garbage, missing] {
            do {
                _ = try Models.transcriber().transcribe(file: url)
                Issue.record("expected an error for \(url.lastPathComponent)")
            } catch let error as EngineError {
                #expect([.unreadableAudio, .unsupportedAudioFormat].contains(error.code))
                #expect(error.message.contains(url.lastPathComponent))
            }
        }
    }

    @Test func aTruncatedModelIsATypedErrorNamingTheFix() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let installed = try AssetStore.default.requireInstalled(.whisperTinyEn)
        let handle = try FileHandle(forReadingFrom: installed.appendingPathComponent("model.bin"))
        let head = try handle.read(upToCount: 1 << 20) ?? Data()
        try handle.close()
        try head.write(to: directory.appendingPathComponent("model.bin"))
        for file in ["config.json", "tokenizer.json", "vocabulary.txt"] {
            try? FileManager.default.copyItem(at: installed.appendingPathComponent(file),
                                              to: directory.appendingPathComponent(file))
        }
        do {
            _ = try WhisperModel(directory: directory)
            Issue.record("a truncated model loaded")
        } catch let error as EngineError {
            #expect(error.code == .invalidModelFile)
            #expect(error.message.contains("model.bin") && error.message.contains("speech assets install"))
        }
    }
}
