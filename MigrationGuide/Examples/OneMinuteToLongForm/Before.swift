// Before: long-form capture with the legacy face. A server-style task stops
// after a minute of audio (API.md §3.1), so apps restart tasks and stitch
// the pieces, offsetting each piece's timestamps (§3.4). RollingRecognizer
// (SpeechMigration) is that workaround done carefully: cuts at quiet points,
// nothing lost or repeated.

import AVFoundation
import Foundation
import Speech
import SpeechMigration

enum Before {
    static func transcribe(_ buffers: [AVAudioPCMBuffer], limitSeconds: TimeInterval) async throws {
        guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")) else {
            throw ExampleError("en-US is not supported")
        }
        recognizer.queue = OperationQueue()
        // Each task gets a little less than the limit (55 s of 60 s by default).
        let rolling = RollingRecognizer(recognizer: recognizer, stretchSeconds: limitSeconds - 1,
                                        lookbackSeconds: min(3, limitSeconds / 4)) { request in
            request.requiresOnDeviceRecognition = false   // server-style: limited
            request.maximumRecognitionDuration = limitSeconds
        }
        for buffer in buffers { rolling.append(buffer) }
        rolling.endAudio()
        let transcript = try await rolling.transcript()
        print("TASKS: \(transcript.stretches.count)")
        print("TRANSCRIPT: \(transcript.text)")
        for word in transcript.words {
            print(String(format: "WORD %.3f %.3f %.3f %@", word.startSeconds, word.durationSeconds,
                         word.confidence ?? 0, word.text))
        }
    }
}
