import Foundation
import SpeechEngine
import Testing
@testable import Speech

@Suite struct SFSpeechRecognitionResultTests {
    static func finalResult() -> SFSpeechRecognitionResult {
        let voice = VoiceAnalyzer()
        voice.append((0..<16_000).map { 0.3 * sin(2 * .pi * 150 * Float($0) / 16_000) })
        let hypothesis = RecognizedSpan(
            startSeconds: 0, endSeconds: 1, text: "hello there",
            words: [RecognizedWord(text: " hello", startSeconds: 0.1, endSeconds: 0.4, confidence: 0.9),
                    RecognizedWord(text: " there", startSeconds: 0.5, endSeconds: 0.9, confidence: 0.6)],
            alternatives: [(text: "hello their", score: -1)])
        return ResultMapping.legacyResult(finals: [hypothesis], volatile: nil, isFinal: true, voice: voice)
    }

    @Test func finalResultsCarryAnalyticsPerSegmentAndOverall() throws {
        let result = Self.finalResult()
        #expect(result.bestTranscription === result.transcriptions.first)
        #expect(result.transcriptions.map(\.formattedString) == ["hello there", "hello their"])
        let metadata = try #require(result.speechRecognitionMetadata)
        let analytics = try #require(metadata.voiceAnalytics)
        #expect(analytics.pitch.frameDuration == 0.01)
        #expect(analytics.pitch.acousticFeatureValuePerFrame.count == 80)
        let segment = result.bestTranscription.segments[0]
        #expect(segment.alternativeSubstrings.isEmpty)
        #expect(result.bestTranscription.segments[1].alternativeSubstrings == ["their"])
        let segmentVoice = try #require(segment.voiceAnalytics)
        #expect(segmentVoice.voicing.acousticFeatureValuePerFrame.count == 30)
        #expect(segmentVoice.pitch.acousticFeatureValuePerFrame.allSatisfy { abs(exp($0) - 150) < 3 })
        #expect(result.bestTranscription.speakingRate == metadata.speakingRate)
    }

    @Test func resultsRoundTripThroughSecureCoding() throws {
        let result = Self.finalResult()
        let data = try NSKeyedArchiver.archivedData(withRootObject: result, requiringSecureCoding: true)
        let decoded = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: SFSpeechRecognitionResult.self,
                                                                           from: data))
        #expect(decoded.isFinal)
        #expect(decoded.transcriptions.map(\.formattedString) == result.transcriptions.map(\.formattedString))
        let segments = decoded.bestTranscription.segments
        #expect(segments.map(\.substring) == ["hello", "there"])
        #expect(segments.map(\.substringRange) == result.bestTranscription.segments.map(\.substringRange))
        #expect(segments.map(\.confidence) == result.bestTranscription.segments.map(\.confidence))
        #expect(decoded.speechRecognitionMetadata?.voiceAnalytics == result.speechRecognitionMetadata?.voiceAnalytics)
        #expect(result.copy() as AnyObject === result)
    }
}
