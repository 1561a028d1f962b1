// The soak's "microphone": a long recording read in tap-sized buffers and
// handed over at a chosen multiple of real time, the way an AVAudioEngine
// input tap hands an app its buffers (a fresh buffer each time, on a thread
// of its own, never waiting for recognition).

import AVFoundation
import Foundation

/// Reads a file in tap-sized buffers and delivers them at `speed` times real time.
struct PacedAudio {
    /// Frames per delivered buffer (an input tap's usual 4,096).
    static let framesPerBuffer: AVAudioFrameCount = 4_096

    let url: URL
    /// Multiple of real time; 1 is live.
    let speed: Double
    /// Seconds of audio between two resource samples.
    let sampleEverySeconds: Double
    /// When set, a buffer waits while the audio delivered is this many
    /// seconds ahead of what the face has recognized: on a machine too busy
    /// to keep up with `speed`, the soak then measures the face, not a queue
    /// of audio nobody has looked at yet. `nil` never waits (a live source).
    var maxLeadSeconds: Double? = nil
    /// Wall-clock seconds a buffer waits at most for recognition to move (a
    /// face that reports nothing for that long is fed anyway).
    var stallSeconds: Double = 60

    /// Delivers every buffer of the file to `deliver`, calling `sample` with
    /// the audio seconds delivered at each `sampleEverySeconds` boundary.
    /// `recognizedThrough` reports the audio seconds the face has results for.
    /// Returns the seconds of audio delivered and the wall seconds spent waiting for the face.
    func play(deliver: (AVAudioPCMBuffer) -> Void, sample: (Double) -> Void,
              recognizedThrough: () -> Double = { .infinity }) throws -> (audioSeconds: Double, waitedSeconds: Double) {
        let file = try AVAudioFile(forReading: url)
        let format = file.processingFormat
        let clock = ContinuousClock()
        let started = clock.now
        var deliveredFrames: AVAudioFramePosition = 0
        var nextSample = sampleEverySeconds
        var waited = 0.0
        while file.framePosition < file.length {
            guard let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: Self.framesPerBuffer) else {
                throw SoakError("cannot allocate a \(Self.framesPerBuffer)-frame buffer in \(format)")
            }
            try file.read(into: buffer)
            guard buffer.frameLength > 0 else { break }
            // Hold each buffer until its time comes, as a live source would.
            let due = Double(deliveredFrames) / format.sampleRate / speed
            let wait = due - (clock.now - started).seconds
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            waited += waitForRecognition(atSeconds: Double(deliveredFrames) / format.sampleRate, recognizedThrough)
            deliver(buffer)
            deliveredFrames += AVAudioFramePosition(buffer.frameLength)
            let seconds = Double(deliveredFrames) / format.sampleRate
            if seconds >= nextSample {
                sample(seconds)
                nextSample += sampleEverySeconds
            }
        }
        return (Double(deliveredFrames) / format.sampleRate, waited)
    }

    /// Sleeps while `seconds` is more than `maxLeadSeconds` ahead of the
    /// face, or until the face has not moved for `stallSeconds`.
    private func waitForRecognition(atSeconds seconds: Double, _ recognizedThrough: () -> Double) -> Double {
        guard let maxLead = maxLeadSeconds else { return 0 }
        let clock = ContinuousClock()
        let started = clock.now
        var movedAt = started
        var last = recognizedThrough()
        while seconds - last > maxLead, (clock.now - movedAt).seconds < stallSeconds {
            Thread.sleep(forTimeInterval: 0.05)
            let now = recognizedThrough()
            if now > last { last = now; movedAt = clock.now }
        }
        return (clock.now - started).seconds
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

/// A soak that cannot run (bad arguments, a face that failed), with what to do.
struct SoakError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
