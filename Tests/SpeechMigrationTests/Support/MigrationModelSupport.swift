import AVFoundation
import Foundation
import TestSupport

/// Switches and helpers for the tests that run the real engine.
///
/// They need whisper-base installed and take seconds per clip even in
/// release builds, so they run only with `SPEECHCOMPAT_MODEL_TESTS=1`:
/// `SPEECHCOMPAT_MODEL_TESTS=1 swift test -c release -Xswiftc -enable-testing --filter SpeechMigrationTests`.
enum MigrationModelSupport {
    /// A short clip: "go forward ten meters" (2.8 s).
    static let goForward = Fixtures.corpusClip("audio/pocketsphinx/ps_goforward.wav")

    /// A file's audio as buffers of `frames` frames in its processing format.
    static func buffers(of url: URL, frames: AVAudioFrameCount = 4_096) throws -> [AVAudioPCMBuffer] {
        try AudioBuffers.buffers(of: url, frames: frames)
    }

    /// Writes the clips one after another into a WAV file in `folder`.
    static func concatenate(_ clips: [URL], into folder: URL) throws -> URL {
        try AudioBuffers.concatenate(clips, into: folder)
    }
}
