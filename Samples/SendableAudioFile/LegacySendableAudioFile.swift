// The legacy face: a detached task owns the file and appends its buffers to
// a buffer recognition request while the caller waits for the final result.

import AVFoundation
import Foundation
import Speech

enum LegacySendableAudioFile {
    static func run(_ url: URL) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")), recognizer.isAvailable else {
            throw SampleError("speech recognition for en-US is not available (speech assets install whisper-base)")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechAudioBufferRecognitionRequest()
        request.shouldReportPartialResults = false
        request.requiresOnDeviceRecognition = true
        let file = try AVAudioFile(forReading: url)

        // The file crosses into the task: it is Sendable.
        let feeder = Task.detached(priority: .userInitiated) { () throws -> AVAudioFramePosition in
            guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: 4_096) else {
                throw SampleError("no buffer for \(file.processingFormat)")
            }
            while file.framePosition < file.length {
                try file.read(into: buffer)
                if buffer.frameLength == 0 { break }
                guard let copy = buffer.copy() as? AVAudioPCMBuffer else { continue }
                request.append(copy)
            }
            request.endAudio()
            return file.framePosition
        }
        let result = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<SFSpeechRecognitionResult, Error>) in
            recognizer.recognitionTask(with: request) { result, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let result, result.isFinal {
                    continuation.resume(returning: result)
                }
            }
        }
        print("FED: \(try await feeder.value) frames")
        print("TRANSCRIPT: \(result.bestTranscription.formattedString)")
        for segment in result.bestTranscription.segments {
            print(String(format: "WORD %.3f %.3f %.3f %@", segment.timestamp, segment.duration, segment.confidence,
                         segment.substring))
        }
    }
}
