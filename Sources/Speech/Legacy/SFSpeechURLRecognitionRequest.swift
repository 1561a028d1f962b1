import Foundation

/// A request to recognize speech in a recorded audio file.
///
/// The final result arrives after the whole file (or, for server-style
/// tasks, its first minute) has been recognized; there is no `endAudio()`.
/// - Note: On Linux the file is read with libsndfile (WAV, AIFF, CAF, FLAC,
///   Ogg Vorbis/Opus, MP3), resampled to 16 kHz mono and decoded as a file,
///   the way `speech transcribe` decodes it (both paddings for short files,
///   beam search, temperature fallback), with a partial result after each
///   30 s window. An unreadable file ends the task with
///   `SFSpeechError.audioReadFailed` (SFSpeechErrorDomain 2).
@available(iOS 10.0, macOS 10.15, *)
open class SFSpeechURLRecognitionRequest: SFSpeechRecognitionRequest, @unchecked Sendable {
    /// The URL of the audio file.
    open private(set) var url: URL

    /// Creates a request for the audio file at `URL`.
    public init(url URL: URL) {
        self.url = URL
        super.init()
    }

    override func startProducingAudio(on scheduler: BridgeScheduler) {
        let url = url
        let feed = feed
        scheduler.background {
            do {
                feed.appendRecording(try BufferConversion.samples(ofFileAt: url))
                feed.end()
            } catch {
                feed.fail(error)
            }
        }
    }
}
