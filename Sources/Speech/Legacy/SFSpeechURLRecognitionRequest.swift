import Foundation
import SpeechEngine

/// A request to recognize speech in a recorded audio file.
///
/// The final result arrives after the whole file (or, for server-style
/// tasks, its first minute) has been recognized; there is no `endAudio()`.
/// - Note: On Linux the file is read with libsndfile (WAV, AIFF, CAF, FLAC,
///   Ogg Vorbis/Opus, MP3) and resampled to 16 kHz mono. An unreadable file
///   ends the task with `SFSpeechError.audioReadFailed` (SFSpeechErrorDomain 2).
@available(iOS 10.0, macOS 10.15, *)
open class SFSpeechURLRecognitionRequest: SFSpeechRecognitionRequest, @unchecked Sendable {
    /// The URL of the audio file.
    open private(set) var url: URL

    /// Seconds of audio handed to the engine at a time.
    private static let chunkSeconds = 1.0

    /// Creates a request for the audio file at `URL`.
    public init(url URL: URL) {
        self.url = URL
        super.init()
    }

    override func startProducingAudio() {
        let url = url
        let feed = feed
        DispatchQueue.global(qos: .userInitiated).async {
            let samples: [Float]
            do {
                samples = try AudioDecoder.decode(contentsOf: url)
            } catch {
                feed.fail(ErrorMapping.legacyError(forAny: error))
                return
            }
            let chunk = Int(Self.chunkSeconds * BufferConversion.outputRate)
            var start = 0
            while start < samples.count {
                let end = min(samples.count, start + chunk)
                guard feed.append(Array(samples[start..<end])) else { return }
                start = end
            }
            feed.end()
        }
    }
}
