import Foundation
import SpeechEngine
import Testing
@testable import Speech

@Suite struct ErrorMappingTests {
    static func legacy(_ code: EngineError.Code) -> NSError {
        ErrorMapping.legacyError(for: EngineError(code, "what to do")) as NSError
    }

    @Test func engineErrorsBecomeApplesLegacyDomainsAndCodes() {
        #expect(Self.legacy(.cancelled).domain == "kLSRErrorDomain")
        #expect(Self.legacy(.cancelled).code == 301)
        #expect(Self.legacy(.modelNotFound).domain == "kLSRErrorDomain")
        #expect(Self.legacy(.modelNotFound).code == 102)
        #expect(Self.legacy(.invalidModelFile).code == 300)
        #expect(Self.legacy(.internalInconsistency).domain == "kAFAssistantErrorDomain")
        #expect(Self.legacy(.internalInconsistency).code == 203)
        #expect(Self.legacy(.unreadableAudio).domain == SFSpeechErrorDomain)
        #expect(Self.legacy(.unreadableAudio).code == 2)
        #expect(Self.legacy(.modelNotFound).localizedFailureReason == "what to do")
        #expect(Self.legacy(.modelNotFound).userInfo[NSUnderlyingErrorKey] is EngineError)
    }

    @Test func legacyCodesCarryApplesDescriptions() {
        let noSpeech = ErrorMapping.Legacy.noSpeech.error()
        #expect(noSpeech.domain == "kAFAssistantErrorDomain" && noSpeech.code == 1110)
        #expect(noSpeech.localizedDescription == "No speech detected")
        #expect(ErrorMapping.Legacy.notAuthorized.error().code == 1700)
        #expect(ErrorMapping.Legacy.alreadyActive.error().code == 1100)
        #expect(ErrorMapping.Legacy.dictationDisabled.error().domain == "kLSRErrorDomain")
    }

    @Test func modernErrorsAreSFSpeechErrorsOrCancellation() {
        #expect(ErrorMapping.speechError(for: EngineError(.cancelled, "")) is CancellationError)
        let noModel = ErrorMapping.speechError(for: EngineError(.modelNotFound, "install"))
        #expect((noModel as? SFSpeechError)?.code == .noModel)
        let format = ErrorMapping.speechError(for: EngineError(.unsupportedAudioFormat, ""))
        #expect((format as? SFSpeechError)?.code == .unexpectedAudioFormat)
    }

    /// A full disk during an asset install: "not enough on-device resources"
    /// for the modern face, "assets are not installed" (102) for the legacy
    /// one; both keep the engine's message saying how to fix it.
    @Test func fullDiskBecomesInsufficientResourcesAndAssetsNotInstalled() {
        let full = EngineError(.insufficientStorage, "The disk holding /models is full: free some space.")
        let modern = ErrorMapping.speechError(forAny: full) as? SFSpeechError
        #expect(modern?.code == .insufficientResources)
        #expect((modern.map { $0 as NSError })?.localizedFailureReason == full.message)
        let legacy = Self.legacy(.insufficientStorage)
        #expect(legacy.domain == "kLSRErrorDomain" && legacy.code == 102)
    }

    /// A capture device that went away: audioReadFailed in both faces, with
    /// the device's own error underneath.
    @Test func vanishedDeviceBecomesAudioReadFailed() {
        let device = NSError(domain: NSOSStatusErrorDomain, code: 561_017_449,
                             userInfo: [NSLocalizedDescriptionKey: "ALSA capture device 'mic' failed."])
        let engineError = ErrorMapping.captureDeviceVanished(device)
        #expect(engineError.code == .audioDeviceUnavailable)
        #expect(engineError.message.contains("went away mid-stream (ALSA capture device 'mic' failed.)"))
        #expect((engineError.underlying as? NSError) === device)
        let legacy = ErrorMapping.legacyError(for: engineError) as NSError
        #expect(legacy.domain == SFSpeechErrorDomain && legacy.code == 2)
        #expect((ErrorMapping.speechError(for: engineError) as? SFSpeechError)?.code == .audioReadFailed)
    }

    @Test func foreignErrorsBecome203AndLegacyOnesPassThrough() {
        let foreign = ErrorMapping.legacyError(forAny: CocoaError(.fileReadNoSuchFile)) as NSError
        #expect(foreign.domain == "kAFAssistantErrorDomain" && foreign.code == 203)
        let legacy = ErrorMapping.Legacy.noSpeech.error()
        #expect(ErrorMapping.legacyError(forAny: legacy) as NSError === legacy)
    }
}
