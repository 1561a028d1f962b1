import AVFoundation
import Foundation

/// An audio file as analyzer input: read from its current position in
/// one-second chunks and converted to the engine's 16 kHz mono, as Apple's
/// analyzer converts file input automatically. The analyzer takes the whole
/// file as one recording (`samples()`), decoded as a file, placed after any
/// input consumed before it. Reading errors are
/// `SFSpeechError.Code.audioReadFailed`.
struct AudioFileInput: Sendable {
    /// The file to read from its current position.
    let file: AVAudioFile

    /// The rest of the file as 16 kHz mono samples.
    /// - Throws: `SFSpeechError.Code.audioReadFailed`; `CancellationError` when the task is cancelled.
    func samples() throws -> [Float] {
        let converter = BufferConversion()
        let format = file.processingFormat
        let capacity = AVAudioFrameCount(Swift.max(1_024, format.sampleRate.rounded()))
        var samples: [Float] = []
        while true {
            try Task.checkCancellation()
            guard let chunk = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: capacity) else {
                throw Self.readError(file, underlying: nil)
            }
            do {
                if file.framePosition < file.length { try file.read(into: chunk) }
            } catch {
                throw Self.readError(file, underlying: error)
            }
            if chunk.frameLength == 0 { return samples + converter.finish() }
            do {
                samples += try converter.convert(chunk)
            } catch {
                throw Self.readError(file, underlying: error)
            }
        }
    }

    /// The error for a file that cannot be read or converted.
    static func readError(_ file: AVAudioFile, underlying: (any Error)?) -> SFSpeechError {
        var info: [String: Any] = [
            NSLocalizedDescriptionKey: "The audio file \(file.url.path) could not be read"
                + (underlying.map { ": \($0.localizedDescription)" } ?? ".")
                + " Check that it is a readable WAV, FLAC, Ogg or MP3 file.",
        ]
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return SFSpeechError(.audioReadFailed, userInfo: info)
    }
}
