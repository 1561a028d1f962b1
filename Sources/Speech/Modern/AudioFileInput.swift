import AVFoundation
import CoreMedia
import Foundation

/// An audio file as analyzer input: read from its current position in
/// one-second chunks and converted to the engine's 16 kHz mono, as Apple's
/// analyzer converts file input automatically. The analyzer takes the whole
/// file as one recording (`samples()`), decoded as a file; the sequence of
/// `AnalyzerInput` buffers is there for callers that want them.
///
/// Buffers carry no time-codes: the file's audio follows any input consumed
/// before it. Reading errors end the sequence with
/// `SFSpeechError.Code.audioReadFailed`.
struct AudioFileInput: AsyncSequence, @unchecked Sendable {
    // @unchecked: `AVAudioFile` is a class with a read position; the analyzer
    // reads it from one task only, as Apple's documentation requires.

    typealias Element = AnalyzerInput

    /// The file to read from its current position.
    let file: AVAudioFile

    /// Reads, converts and wraps one chunk per `next()`.
    struct AsyncIterator: AsyncIteratorProtocol {
        let file: AVAudioFile
        let converter = BufferConversion()
        var isDone = false

        mutating func next() async throws -> AnalyzerInput? {
            while !isDone {
                try Task.checkCancellation()
                let samples = try readChunk()
                if !samples.isEmpty { return AnalyzerInput(buffer: try AudioFileInput.buffer(of: samples)) }
            }
            return nil
        }

        /// The next chunk as 16 kHz mono samples (possibly empty while the
        /// resampler fills); sets `isDone` at the end of the file.
        mutating func readChunk() throws -> [Float] {
            let format = file.processingFormat
            let capacity = AVAudioFrameCount(Swift.max(1_024, format.sampleRate.rounded()))
            guard let chunk = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: capacity) else {
                throw AudioFileInput.readError(file, underlying: nil)
            }
            do {
                if file.framePosition < file.length { try file.read(into: chunk) }
            } catch {
                throw AudioFileInput.readError(file, underlying: error)
            }
            if chunk.frameLength == 0 {
                isDone = true
                return converter.finish()
            }
            do {
                return try converter.convert(chunk)
            } catch {
                throw AudioFileInput.readError(file, underlying: error)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(file: file)
    }

    /// The rest of the file as 16 kHz mono samples.
    /// - Throws: `SFSpeechError.Code.audioReadFailed`; `CancellationError` when the task is cancelled.
    func samples() throws -> [Float] {
        var iterator = makeAsyncIterator()
        var samples: [Float] = []
        while !iterator.isDone {
            try Task.checkCancellation()
            samples += try iterator.readChunk()
        }
        return samples
    }

    /// A 16 kHz mono Float32 buffer holding `samples`.
    static func buffer(of samples: [Float]) throws -> AVAudioPCMBuffer {
        guard let format = AVAudioFormat(commonFormat: .pcmFormatFloat32,
                                         sampleRate: Double(ModernAudioFormats.sampleRate), channels: 1,
                                         interleaved: false),
              let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: AVAudioFrameCount(samples.count)),
              let channel = buffer.floatChannelData?[0] else {
            throw SFSpeechError(.internalServiceError,
                                userInfo: [NSLocalizedDescriptionKey: "Cannot allocate an audio buffer."])
        }
        samples.withUnsafeBufferPointer { source in
            channel.update(from: source.baseAddress!, count: samples.count)
        }
        buffer.frameLength = AVAudioFrameCount(samples.count)
        return buffer
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
