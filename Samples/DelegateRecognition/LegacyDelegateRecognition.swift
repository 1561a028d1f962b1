// The legacy face with a delegate instead of a result handler: every
// callback is printed in the order the task makes it.

import Foundation
import Speech

final class TranscriptionDelegate: NSObject, SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
    private var continuation: CheckedContinuation<String, any Error>?
    private var transcript = ""

    func wait(_ start: () -> Void) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            self.continuation = continuation
            start()
        }
    }

    func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) {
        print("EVENT detectedSpeech")
    }

    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didHypothesizeTranscription transcription: SFTranscription) {
        print("EVENT hypothesis: \(transcription.formattedString)")
    }

    func speechRecognitionTaskFinishedReadingAudio(_ task: SFSpeechRecognitionTask) {
        print("EVENT finishedReadingAudio")
    }

    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishRecognition recognitionResult: SFSpeechRecognitionResult) {
        transcript = recognitionResult.bestTranscription.formattedString
        print("EVENT finalResult")
    }

    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
        print("EVENT finishedSuccessfully: \(successfully)")
        if successfully {
            continuation?.resume(returning: transcript)
        } else {
            continuation?.resume(throwing: task.error ?? SampleError("recognition failed"))
        }
        continuation = nil
    }
}

enum LegacyDelegateRecognition {
    static func run(_ url: URL) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")) else {
            throw SampleError("en-US is not supported")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechURLRecognitionRequest(url: url)
        request.requiresOnDeviceRecognition = true
        let delegate = TranscriptionDelegate()   // the task holds its delegate weakly: keep it
        let transcript = try await delegate.wait { recognizer.recognitionTask(with: request, delegate: delegate) }
        print("TRANSCRIPT: \(transcript)")
    }
}
