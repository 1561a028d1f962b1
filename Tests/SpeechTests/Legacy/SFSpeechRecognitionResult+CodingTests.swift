import Foundation
import Testing
@testable import Speech

/// `NSSecureCoding` of every legacy value type Apple makes secure-codable,
/// each archived on its own through Linux Foundation's keyed archiver: every
/// field comes back. (`SFSpeechLanguageModel.Configuration` is declared at
/// top level for this: the archiver traps on nested classes.)
@Suite struct SFSpeechRecognitionResultCodingTests {
    private func roundTrip<T: NSObject & NSSecureCoding>(_ object: T) throws -> T {
        let data = try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
        return try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: T.self, from: data))
    }

    @Test func transcriptionSegmentsAndMetadataKeepEveryField() throws {
        let result = SFSpeechRecognitionResultTests.finalResult()
        let transcription = result.bestTranscription
        let decoded = try roundTrip(transcription)
        #expect(decoded.formattedString == transcription.formattedString)
        #expect(decoded.speakingRate == transcription.speakingRate)
        #expect(decoded.averagePauseDuration == transcription.averagePauseDuration)
        for (segment, original) in zip(decoded.segments, transcription.segments) {
            #expect(segment.substring == original.substring && segment.substringRange == original.substringRange)
            #expect(segment.timestamp == original.timestamp && segment.duration == original.duration)
            #expect(segment.confidence == original.confidence)
            #expect(segment.alternativeSubstrings == original.alternativeSubstrings)
            #expect(segment.voiceAnalytics == original.voiceAnalytics)
        }

        let metadata = try #require(result.speechRecognitionMetadata)
        let decodedMetadata = try roundTrip(metadata)
        #expect(decodedMetadata.speakingRate == metadata.speakingRate)
        #expect(decodedMetadata.averagePauseDuration == metadata.averagePauseDuration)
        #expect(decodedMetadata.speechStartTimestamp == metadata.speechStartTimestamp)
        #expect(decodedMetadata.speechDuration == metadata.speechDuration)

        let analytics = try #require(metadata.voiceAnalytics)
        let decodedAnalytics = try roundTrip(analytics)
        #expect(decodedAnalytics == analytics)
        let pitch = try roundTrip(analytics.pitch)
        #expect(pitch.acousticFeatureValuePerFrame == analytics.pitch.acousticFeatureValuePerFrame)
        #expect(pitch.frameDuration == analytics.pitch.frameDuration)
    }

    @Test func languageModelConfigurationKeepsItsFilesAndWeight() throws {
        let configuration = SFSpeechLanguageModel.Configuration(languageModel: URL(fileURLWithPath: "/tmp/lm.bin"),
                                                                vocabulary: URL(fileURLWithPath: "/tmp/vocab"),
                                                                weight: 0.25)
        let decoded = try roundTrip(configuration)
        #expect(decoded.languageModel == configuration.languageModel)
        #expect(decoded.vocabulary == configuration.vocabulary)
        #expect(decoded.weight == 0.25)
        let bare = try roundTrip(SFSpeechLanguageModel.Configuration(languageModel: URL(fileURLWithPath: "/tmp/lm")))
        #expect(bare.vocabulary == nil && bare.weight == nil)
    }
}
