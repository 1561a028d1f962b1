// An @Observable recognizer model, as dictation apps write one for SwiftUI:
// it imports only Foundation, Speech and AVFoundation, publishes the
// transcript and state, and can run on either face.

import AVFoundation
import Foundation
import Speech

@MainActor
@Observable
final class SpeechRecognizerModel {
    enum State: Equatable {
        case idle
        case recognizing
        case finished
        case failed(String)
    }

    private(set) var transcript = ""
    private(set) var state = State.idle
    private(set) var words: [String] = []

    @ObservationIgnored private let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US"))
    @ObservationIgnored private var task: SFSpeechRecognitionTask?

    /// The legacy face: a URL request with partial results.
    func transcribeLegacy(_ url: URL) async {
        guard let recognizer, recognizer.isAvailable else {
            state = .failed("speech recognition for en-US is not available")
            return
        }
        state = .recognizing
        let request = SFSpeechURLRecognitionRequest(url: url)
        request.shouldReportPartialResults = true
        request.requiresOnDeviceRecognition = true
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            task = recognizer.recognitionTask(with: request) { [weak self] result, error in
                let text = result?.bestTranscription.formattedString
                let segments = result?.bestTranscription.segments.map(\.substring) ?? []
                let isFinal = result?.isFinal ?? false
                let failure = error?.localizedDescription
                Task { @MainActor in
                    guard let self else { return }
                    if let text { self.transcript = text }
                    if let failure {
                        self.state = .failed(failure)
                        continuation.resume()
                    } else if isFinal {
                        self.words = segments
                        self.state = .finished
                        continuation.resume()
                    }
                }
            }
        }
        task = nil
    }

    /// The modern face: an analyzer over the file, volatile then final text.
    func transcribeModern(_ url: URL) async {
        state = .recognizing
        do {
            let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .progressiveTranscription)
            if let installation = try await AssetInventory.assetInstallationRequest(supporting: [transcriber]) {
                try await installation.downloadAndInstall()
            }
            let file = try AVAudioFile(forReading: url)
            let analyzer = try await SpeechAnalyzer(inputAudioFile: file, modules: [transcriber], finishAfterFile: true)
            var finalized = ""
            for try await result in transcriber.results {
                let text = String(result.text.characters)
                if result.isFinal {
                    finalized += text
                    transcript = finalized
                } else {
                    transcript = finalized + text
                }
            }
            _ = analyzer
            transcript = finalized.trimmingCharacters(in: .whitespaces)
            words = transcript.split(separator: " ").map(String.init)
            state = .finished
        } catch {
            state = .failed(error.localizedDescription)
        }
    }
}
