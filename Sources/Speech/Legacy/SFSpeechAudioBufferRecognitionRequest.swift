import AVFoundation
import CoreMedia
import Foundation

/// A request to recognize live or streamed audio that the app appends.
///
/// Append buffers as they arrive (typically from an `AVAudioEngine` input
/// tap), then call `endAudio()`: the final result comes only after that.
/// - Note: On Linux `append(_:)` accepts any PCM buffer — Float32, Int16 or
///   Int32, interleaved or not, any sample rate and channel count — and
///   converts it to the engine's 16 kHz mono internally, as Apple's does in
///   practice. Appending is thread-safe. Audio appended before the task
///   starts is kept for it; audio after `endAudio()` is ignored.
@available(iOS 10.0, macOS 10.15, *)
open class SFSpeechAudioBufferRecognitionRequest: SFSpeechRecognitionRequest, @unchecked Sendable {
    // @unchecked: conversion state is behind `conversionLock`.

    private let conversionLock = NSLock()
    private let conversion = BufferConversion()
    private var conversionError: (any Error)?
    /// The capture run whose failure this request listens for (see `append`).
    private var watchedOrigin: CaptureOrigin?

    /// Creates an empty request.
    public override init() {
        super.init()
    }

    /// The preferred audio format: 16 kHz mono Float32 (non-interleaved).
    /// - Note: A hint only, as on Apple platforms; any PCM format is accepted.
    open var nativeAudioFormat: AVAudioFormat {
        AVAudioFormat(commonFormat: .pcmFormatFloat32, sampleRate: BufferConversion.outputRate, channels: 1,
                      interleaved: false)!
    }

    /// Appends PCM audio to the request.
    /// - Note: A buffer in a format without public sample access (Float64,
    ///   compressed) ends the task with `SFSpeechError.audioReadFailed`.
    ///   On Linux, buffers from an `AVAudioEngine` input tap (directly or
    ///   through `AVAudioConverter`) tie the request to that capture: if the
    ///   device goes away mid-stream, the audio appended so far is recognized
    ///   and the task ends with `SFSpeechError.audioReadFailed`, handing over
    ///   the text so far with the error, instead of waiting for audio forever.
    open func append(_ audioPCMBuffer: AVAudioPCMBuffer) {
        conversionLock.withLock {
            guard !feed.isEnded else { return }
            watchCapture(of: audioPCMBuffer)
            do {
                feed.append(try conversion.convert(audioPCMBuffer))
            } catch {
                feed.fail(ErrorMapping.legacyError(forAny: error))
            }
        }
    }

    /// Appends audio from a Core Media sample buffer.
    /// - Note: On Linux the sample buffer must hold linear PCM (what
    ///   `CMSampleBuffer`s from capture carry); it is converted like `append(_:)`.
    open func appendAudioSampleBuffer(_ sampleBuffer: CMSampleBuffer) {
        conversionLock.withLock {
            guard !feed.isEnded else { return }
            do {
                feed.append(try conversion.convert(sampleBuffer))
            } catch {
                feed.fail(ErrorMapping.legacyError(forAny: error))
            }
        }
    }

    /// Listens for the failure of the capture run `buffer` came from, once
    /// per run (called under `conversionLock`).
    private func watchCapture(of buffer: AVAudioPCMBuffer) {
        guard let origin = buffer.captureOrigin, origin !== watchedOrigin else { return }
        watchedOrigin = origin
        origin.whenDeviceFails { [weak self] deviceError in
            self?.captureDeviceVanished(deviceError)
        }
    }

    /// The capture device went away: audio ends, what was appended is
    /// recognized, and the task ends with the device error.
    private func captureDeviceVanished(_ deviceError: NSError) {
        conversionLock.withLock {
            guard !feed.isEnded else { return }
            feed.append(conversion.finish())
            feed.interrupt(ErrorMapping.legacyError(for: ErrorMapping.captureDeviceVanished(deviceError)))
        }
    }

    /// Marks the end of audio input: no more audio is taken, what was
    /// appended is recognized and the final result is delivered.
    open func endAudio() {
        stopProducingAudio()
    }

    override func stopProducingAudio() {
        conversionLock.withLock {
            guard !feed.isEnded else { return }
            feed.append(conversion.finish())
            feed.end()
        }
    }
}
