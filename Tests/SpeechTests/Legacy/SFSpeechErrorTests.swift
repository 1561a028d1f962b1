import Foundation
import Testing
import Speech

@Suite struct SFSpeechErrorTests {
    @Test func bridgesToNSErrorWithDomainAndCode() {
        let error: any Error = SFSpeechError(.audioReadFailed)
        let nsError = error as NSError
        #expect(nsError.domain == "SFSpeechErrorDomain")
        #expect(nsError.code == 2)
        #expect(nsError.localizedDescription == "The audio source could not be read.")
        #expect(SFSpeechError.errorDomain == SFSpeechErrorDomain)
    }

    @Test func codesHaveApplesRawValuesAndMatchInCatch() {
        #expect(SFSpeechError.Code.internalServiceError.rawValue == 1)
        #expect(SFSpeechError.Code.undefinedTemplateClassName.rawValue == 7)
        #expect(SFSpeechError.Code.malformedSupplementalModel.rawValue == 8)
        #expect(SFSpeechError.Code.timeout.rawValue == 12)
        #expect(SFSpeechError.Code.missingParameter.rawValue == 13)
        #expect(SFSpeechError.Code(rawValue: 42)?.rawValue == 42)
        let modern: [SFSpeechError.Code] = [.audioDisordered, .unexpectedAudioFormat, .noModel, .assetLocaleNotAllocated,
                                            .tooManyAssetLocalesAllocated, .incompatibleAudioFormats, .moduleOutputFailed,
                                            .cannotAllocateUnsupportedLocale, .insufficientResources]
        let published: Set<Int> = [1, 2, 7, 8, 12, 13]
        #expect(Set(modern.map(\.rawValue)).count == modern.count)
        #expect(Set(modern.map(\.rawValue)).isDisjoint(with: published))

        func classify(_ error: any Error) -> String {
            do { throw error } catch SFSpeechError.timeout { return "timeout" } catch { return "other" }
        }
        #expect(classify(SFSpeechError(.timeout)) == "timeout")
        #expect(classify(SFSpeechError(.noModel)) == "other")
        #expect(SFSpeechError(.timeout, userInfo: ["a": 1]) == SFSpeechError(.timeout))
        switch SFSpeechError(.noModel).code {
        case .noModel: break
        default: Issue.record("switch over codes failed")
        }
    }
}
