// The legacy face: the final result's transcriptions are the alternatives,
// most confident first; each segment carries its confidence (0 in partial
// results) and its own alternative substrings.

import Foundation
import Speech

enum LegacyAlternatives {
    static func run(_ url: URL) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")) else {
            throw SampleError("en-US is not supported")
        }
        recognizer.queue = OperationQueue()
        let request = SFSpeechURLRecognitionRequest(url: url)
        request.requiresOnDeviceRecognition = true
        request.shouldReportPartialResults = false
        let result: SFSpeechRecognitionResult = try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error { continuation.resume(throwing: error) }
                if let result, result.isFinal { continuation.resume(returning: result) }
            }
        }
        print("TRANSCRIPT: \(result.bestTranscription.formattedString)")
        for (index, transcription) in result.transcriptions.enumerated() {
            print("ALTERNATIVE \(index): \(transcription.formattedString)")
        }
        for segment in result.bestTranscription.segments {
            let others = segment.alternativeSubstrings.isEmpty ? "" : " (or: \(segment.alternativeSubstrings.joined(separator: ", ")))"
            print(String(format: "CONFIDENCE %.3f %@%@", segment.confidence, segment.substring, others))
        }
        let low = result.bestTranscription.segments.filter { $0.confidence < 0.5 }.map(\.substring)
        print("LOW-CONFIDENCE: \(low.joined(separator: " "))")
    }
}
