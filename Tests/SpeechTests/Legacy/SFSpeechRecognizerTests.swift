import Foundation
import TestSupport
import Testing
@testable import Speech

@Suite struct SFSpeechRecognizerTests {
    @Test func supportedLocalesCoverWhisperLanguagesWithRegions() {
        let locales = SFSpeechRecognizer.supportedLocales()
        let keys = Set(locales.map(LocaleMapping.key(of:)))
        #expect(keys.isSuperset(of: ["en-US", "en-GB", "es-ES", "es-MX", "fr-CA", "de-CH", "ja-JP"]))
        #expect(locales.count > 300)
    }

    @Test func initResolvesSpellingsAndFallsBack() throws {
        let british = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en_GB")))
        #expect(LocaleMapping.key(of: british.locale) == "en-GB")
        let override = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en_US@rg=dezzzz")))
        #expect(LocaleMapping.key(of: override.locale) == "en-US")
        // An unsupported language falls back to the user's language (if supported).
        let klingon = SFSpeechRecognizer(locale: Locale(identifier: "tlh-QO"))
        let userLanguage = LocaleMapping.supportedLocale(equivalentTo: Locale.current,
                                                         in: SFSpeechRecognizer.supportedLocales())
        #expect((klingon == nil) == (userLanguage == nil))
        #expect(SFSpeechRecognizer() != nil || userLanguage == nil)
    }

    @Test func defaultsMatchApple() throws {
        let recognizer = try #require(SFSpeechRecognizer(locale: Locale(identifier: "en-US")))
        #expect(recognizer.queue === OperationQueue.main)
        #expect(recognizer.defaultTaskHint == .unspecified)
        recognizer.availabilityCheck = { _ in false }
        #expect(!recognizer.isAvailable)
        #expect(!recognizer.supportsOnDeviceRecognition)
        recognizer.supportsOnDeviceRecognition = true
        #expect(recognizer.supportsOnDeviceRecognition)
    }

    @Test func defaultTaskHintAppliesToUnspecifiedRequests() throws {
        let environment = SpeechTestEnvironment()
        let (recognizer, _) = environment.makeRecognizer(ScriptedBackend())
        recognizer.defaultTaskHint = .search
        let request = SFSpeechAudioBufferRecognitionRequest()
        recognizer.recognitionTask(with: request) { _, _ in }.cancel()
        #expect(request.taskHint == .search)
        let confirming = SFSpeechAudioBufferRecognitionRequest()
        confirming.taskHint = .confirmation
        recognizer.recognitionTask(with: confirming) { _, _ in }.cancel()
        #expect(confirming.taskHint == .confirmation)
    }

    final class AvailabilityDelegate: NSObject, SFSpeechRecognizerDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Bool] = []
        var changes: [Bool] { lock.withLock { values } }
        func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool) {
            lock.withLock { values.append(available) }
        }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = true
        var current: Bool {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    @Test func delegateHearsWhenModelsAppearOrVanish() async throws {
        let environment = SpeechTestEnvironment()
        let (recognizer, _) = environment.makeRecognizer()
        let installed = Flag()
        recognizer.availabilityCheck = { _ in installed.current }
        recognizer.availabilityPollInterval = 2
        let delegate = AvailabilityDelegate()
        recognizer.delegate = delegate
        #expect(environment.clock.scheduledCount == 1)
        await environment.advance(by: 10)
        #expect(delegate.changes.isEmpty)
        installed.current = false
        await environment.advance(by: 1.9)
        #expect(delegate.changes.isEmpty)
        await environment.advance(by: 0.1)
        #expect(delegate.changes == [false])
        installed.current = true
        await environment.advance(by: 2)
        #expect(delegate.changes == [false, true])
        await environment.advance(by: 20)
        #expect(delegate.changes == [false, true])
        recognizer.delegate = nil
        #expect(environment.clock.scheduledCount == 0)
        installed.current = false
        await environment.advance(by: 20)
        #expect(delegate.changes == [false, true])
    }

    @Test func requestAuthorizationAnswersOffTheCallersThread() async {
        let status: SFSpeechRecognizerAuthorizationStatus = await withCheckedContinuation { continuation in
            SFSpeechRecognizer.requestAuthorization { status in continuation.resume(returning: status) }
        }
        #expect(status == SFSpeechRecognizer.authorizationStatus())
        #expect(status != .notDetermined)
    }
}
