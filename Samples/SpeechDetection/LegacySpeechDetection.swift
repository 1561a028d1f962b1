// The legacy face: speech is detected when the delegate hears
// speechRecognitionDidDetectSpeech; audio without speech ends the task with
// kAFAssistantErrorDomain 1110 "No speech detected".

import Foundation
import Speech

final class DetectionDelegate: NSObject, SFSpeechRecognitionTaskDelegate, @unchecked Sendable {
    var continuation: CheckedContinuation<Void, Never>?
    var detected = false
    var error: (any Error)?

    func speechRecognitionDidDetectSpeech(_ task: SFSpeechRecognitionTask) {
        detected = true
        print("SPEECH-STARTED")
    }

    func speechRecognitionTask(_ task: SFSpeechRecognitionTask, didFinishSuccessfully successfully: Bool) {
        error = successfully ? nil : task.error
        continuation?.resume()
        continuation = nil
    }
}

enum LegacySpeechDetection {
    static func run(_ url: URL) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")) else {
            throw SampleError("en-US is not supported")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechURLRecognitionRequest(url: url)
        request.requiresOnDeviceRecognition = true
        let delegate = DetectionDelegate()
        await withCheckedContinuation { continuation in
            delegate.continuation = continuation
            recognizer.recognitionTask(with: request, delegate: delegate)
        }
        if let error = delegate.error as NSError? {
            print("ERROR: \(error.domain) \(error.code) \(error.localizedDescription)")
        }
        print("SPEECH: \(delegate.detected ? "yes" : "no")")
    }
}
