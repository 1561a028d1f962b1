import Foundation

extension ResultMapping {
    /// The legacy result for the transcript so far: the committed ranges,
    /// then the volatile guess (cumulative, as Apple's partial results are).
    ///
    /// Partial results (`isFinal == false`) have confidence 0, no metadata and
    /// no voice analytics, as on Apple platforms. Final results carry word
    /// confidences, metadata and — when `voice` is given — voice analytics.
    /// - Parameters:
    ///   - finals: committed hypotheses, in stream order.
    ///   - volatile: the current guess after the last committed range.
    ///   - voice: the request's audio features; nil for on-device tasks.
    static func legacyResult(finals: [RecognizedSpan], volatile: RecognizedSpan?, isFinal: Bool,
                             voice: VoiceAnalyzer?) -> SFSpeechRecognitionResult {
        let hypotheses = finals + (volatile.map { [$0] } ?? [])
        let best = layout(hypotheses.flatMap(words(of:)))
        let alternatives = alternativeTexts(of: hypotheses)
        // Partial results carry no per-word alternatives (as on Apple platforms).
        let bestSegments = best.words.enumerated().map { index, placed in
            segment(placed, isFinal: isFinal, voice: isFinal ? voice : nil,
                    alternatives: isFinal ? alternativeSubstrings(forWordAt: index, alternatives: alternatives) : [])
        }
        let metadata = isFinal ? legacyMetadata(best.words.map(\.timing), voice: voice) : nil
        var transcriptions = [SFTranscription(formattedString: best.text, segments: bestSegments,
                                              speakingRate: metadata?.speakingRate ?? 0,
                                              averagePauseDuration: metadata?.averagePauseDuration ?? 0)]
        for alternative in alternatives {
            let placed = layout(alternative.words).words
            let segments = placed.map { segment($0, isFinal: isFinal, voice: nil, alternatives: []) }
            transcriptions.append(SFTranscription(formattedString: alternative.text, segments: segments))
        }
        return SFSpeechRecognitionResult(transcriptions: transcriptions, isFinal: isFinal, metadata: metadata)
    }

    /// Speaking rate, pauses and speech extent of final words.
    static func legacyMetadata(_ words: [RecognizedWord], voice: VoiceAnalyzer?) -> SFSpeechRecognitionMetadata? {
        guard let first = words.first, let last = words.last else { return nil }
        let start = first.startSeconds
        let duration = max(0, last.endSeconds - start)
        let pauses = zip(words, words.dropFirst()).map { max(0, $1.startSeconds - $0.endSeconds) }
        let averagePause = pauses.isEmpty ? 0 : pauses.reduce(0, +) / Double(pauses.count)
        let rate = duration > 0 ? Double(words.count) / duration * 60 : 0
        return SFSpeechRecognitionMetadata(speakingRate: rate, averagePauseDuration: averagePause,
                                           speechStartTimestamp: start, speechDuration: duration,
                                           voiceAnalytics: voice.map { analytics($0, from: start, to: last.endSeconds) })
    }

    /// Voice analytics of `[start, end)` of the stream.
    static func analytics(_ voice: VoiceAnalyzer, from start: Double, to end: Double) -> SFVoiceAnalytics {
        let frames = voice.frames(from: start, to: end)
        let duration = VoiceAnalyzer.frameDurationSeconds
        return SFVoiceAnalytics(jitter: SFAcousticFeature(values: frames.jitter, frameDuration: duration),
                                shimmer: SFAcousticFeature(values: frames.shimmer, frameDuration: duration),
                                pitch: SFAcousticFeature(values: frames.logPitch, frameDuration: duration),
                                voicing: SFAcousticFeature(values: frames.voicing, frameDuration: duration))
    }

    private static func segment(_ placed: PlacedWord, isFinal: Bool, voice: VoiceAnalyzer?,
                                alternatives: [String]) -> SFTranscriptionSegment {
        let timing = placed.timing
        return SFTranscriptionSegment(
            substring: placed.substring, substringRange: placed.range, timestamp: timing.startSeconds,
            duration: max(0, timing.endSeconds - timing.startSeconds),
            confidence: isFinal ? Float(max(0, min(1, timing.confidence))) : 0,
            alternativeSubstrings: isFinal ? alternatives : [],
            voiceAnalytics: voice.map { analytics($0, from: timing.startSeconds, to: timing.endSeconds) })
    }

    /// A whole-transcript alternative: its text and words.
    private struct AlternativeText {
        var text: String
        var words: [RecognizedWord]
        /// For each word of the best layout (by index), the alternative's word
        /// at the same position of the same range, when the range has as many words.
        var positional: [Int: String]
    }

    /// The n-best alternatives of the whole transcript: alternative `k`
    /// replaces each range's text with that range's `k`-th distinct
    /// alternative (keeping the best text where a range has fewer).
    private static func alternativeTexts(of hypotheses: [RecognizedSpan]) -> [AlternativeText] {
        let distinct = hypotheses.map { hypothesis in
            hypothesis.alternatives.map(\.text)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && $0 != hypothesis.text.trimmingCharacters(in: .whitespaces) }
        }
        let count = distinct.map(\.count).max() ?? 0
        var result: [AlternativeText] = []
        var seen = Set<String>()
        for rank in 0..<count {
            var joined: [RecognizedWord] = []
            var positional: [Int: String] = [:]
            var bestIndex = 0
            for (hypothesis, alternatives) in zip(hypotheses, distinct) {
                let bestWords = layout(words(of: hypothesis)).words
                let probability = hypothesis.alternatives.first { $0.text.trimmingCharacters(in: .whitespaces)
                    == (rank < alternatives.count ? alternatives[rank] : "") }.map { exp($0.score) } ?? 0
                let rangeWords = rank < alternatives.count
                    ? spreadWords(alternatives[rank], from: hypothesis.startSeconds, to: hypothesis.endSeconds,
                                  probability: probability)
                    : words(of: hypothesis)
                let placed = layout(rangeWords).words
                if placed.count == bestWords.count {
                    for (offset, pair) in zip(bestWords, placed).enumerated() where pair.0.substring != pair.1.substring {
                        positional[bestIndex + offset] = pair.1.substring
                    }
                }
                bestIndex += bestWords.count
                if !joined.isEmpty, let first = rangeWords.first, !first.text.hasPrefix(" ") {
                    joined.append(RecognizedWord(text: " " + first.text, startSeconds: first.startSeconds,
                                            endSeconds: first.endSeconds, confidence: first.confidence))
                    joined.append(contentsOf: rangeWords.dropFirst())
                } else {
                    joined.append(contentsOf: rangeWords)
                }
            }
            let text = layout(joined).text
            guard seen.insert(text).inserted else { continue }
            result.append(AlternativeText(text: text, words: joined, positional: positional))
        }
        return result
    }

    /// The alternatives' words at position `index` of the best layout. By
    /// index, not by looking the word up: a rolling task's transcript reaches
    /// thousands of words, and a lookup per word made each result quadratic.
    private static func alternativeSubstrings(forWordAt index: Int, alternatives: [AlternativeText]) -> [String] {
        var seen = Set<String>()
        return alternatives.compactMap { $0.positional[index] }.filter { seen.insert($0).inserted }
    }
}
