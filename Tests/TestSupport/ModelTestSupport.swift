import Foundation
import AVFoundation
import Speech
import SpeechEvaluation

/// Helpers for the tests of both faces on the real engine and real speech.
///
/// They need the installed models and take seconds per clip even in release
/// builds, so they run only when `SPEECHCOMPAT_MODEL_TESTS=1`:
/// `SPEECHCOMPAT_MODEL_TESTS=1 swift test -c release -Xswiftc -enable-testing --filter ModelTests`.
public enum ModelTestSupport {
    /// A corpus clip and its reference transcript.
    public struct Clip: Sendable {
        public var id = ""
        public var set = ""
        public var url: URL
        public var reference: String
        public var durationSeconds: Double
    }

    /// Clips of `manifest.tsv`, by id.
    public static func clip(_ id: String) throws -> Clip {
        let manifest = try String(contentsOf: Fixtures.corpusRoot.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        for line in manifest.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 8, fields[0] == id else { continue }
            return Clip(id: id, set: fields[1], url: Fixtures.corpusClip(fields[4]), reference: fields[7],
                        durationSeconds: Double(fields[3]) ?? 0)
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: id])
    }

    /// The ids of the clips in `sets`, in manifest order.
    public static func clipIDs(inSets sets: Set<String>) throws -> [String] {
        let manifest = try String(contentsOf: Fixtures.corpusRoot.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        return manifest.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return fields.count >= 8 && sets.contains(fields[1]) ? fields[0] : nil
        }
    }

    /// Lower-case words without punctuation.
    public static func words(_ text: String) -> [String] {
        let kept: [Character] = text.lowercased().map { (character: Character) -> Character in
            character.isLetter || character.isNumber || character == "'" ? character : " "
        }
        return String(kept).split(separator: " ").map(String.init)
    }

    /// Word error rate of `hypothesis` against `reference`, scored as
    /// `speech eval` scores (SpeechEvaluation, Whisper's English normaliser).
    public static func wordErrorRate(_ hypothesis: String, reference: String) -> Double {
        let (edits, count) = wordEdits(hypothesis, reference: reference)
        guard count > 0 else { return edits == 0 ? 0 : 1 }
        return Double(edits) / Double(count)
    }

    /// Word errors and the reference's word count, scored by SpeechEvaluation.
    public static func wordEdits(_ hypothesis: String, reference: String) -> (edits: Int, referenceWords: Int) {
        let counts = TranscriptScorer().score(reference: reference, hypothesis: hypothesis, languageTag: "en").counts
        return (counts.errorCount, counts.referenceCount)
    }

    /// The samples of a file as buffers of `frames` frames.
    public static func buffers(of url: URL, frames: AVAudioFrameCount = 4_096) throws -> [AVAudioPCMBuffer] {
        try AudioBuffers.buffers(of: url, frames: frames)
    }

    /// Writes the concatenation of `clips` (16 kHz mono) to a temporary WAV file.
    public static func concatenate(_ clips: [Clip], into folder: URL) throws -> URL {
        try AudioBuffers.concatenate(clips.map(\.url), into: folder)
    }

    /// Runs a URL request to the end with the handler API and returns the
    /// final result (or throws the task's error), as apps wrap it.
    public static func recognize(_ request: SFSpeechRecognitionRequest, locale: String = "en-US",
                          onPartial: @escaping @Sendable (SFSpeechRecognitionResult) -> Void = { _ in })
        async throws -> SFSpeechRecognitionResult {
        let recognizer = SFSpeechRecognizer(locale: Locale(identifier: locale))!
        recognizer.queue = OperationQueue()
        return try await withCheckedThrowingContinuation { continuation in
            recognizer.recognitionTask(with: request) { result, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let result {
                    if result.isFinal { continuation.resume(returning: result) } else { onPartial(result) }
                }
            }
        }
    }
}

extension ModelTestSupport {
    /// Installs a `ClipMicrophone` playing `clip` for `AVAudioEngine()` in this
    /// process (`SPEECHCOMPAT_ALSA_DEVICE` / `SPEECHCOMPAT_ALSA_CONFIG`).
    /// - Returns: the folder to remove afterwards.
    public static func installFileMicrophone(playing clip: URL) throws -> URL {
        let microphone = try ClipMicrophone(clip: clip)
        for (name, value) in microphone.environment { setenv(name, value, 1) }
        return microphone.directory
    }
}
