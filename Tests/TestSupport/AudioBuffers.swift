import AVFoundation
import Foundation

/// Corpus audio as `AVAudioPCMBuffer`s, for tests that feed the Apple faces
/// the way apps do.
public enum AudioBuffers {
    /// A file's audio as buffers of `frames` frames in its processing format.
    public static func buffers(of url: URL, frames: AVAudioFrameCount = 4_096) throws -> [AVAudioPCMBuffer] {
        let file = try AVAudioFile(forReading: url)
        var buffers: [AVAudioPCMBuffer] = []
        while file.framePosition < file.length {
            guard let buffer = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: frames) else { break }
            try file.read(into: buffer)
            if buffer.frameLength == 0 { break }
            buffers.append(buffer)
        }
        return buffers
    }

    /// Writes the clips (16 kHz mono) one after another to `long.wav` in `folder`.
    public static func concatenate(_ clips: [URL], into folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("long.wav")
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let output = try AVAudioFile(forWriting: url, settings: format.settings)
        for clip in clips {
            for buffer in try buffers(of: clip) { try output.write(from: buffer) }
        }
        return url
    }
}
