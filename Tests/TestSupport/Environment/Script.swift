import AVFoundation
import Foundation
import Speech
import SpeechEngine

/// Builders for scripted results and audio: words with times and
/// confidences, and quiet tones the faces can take as buffers.
package enum Script {
    /// A span over `text`'s words, spoken one every `spacing` seconds from `start`.
    package static func hypothesis(_ text: String, start: Double = 0.2, spacing: Double = 0.4,
                                  probability: Double = 0.9, alternatives: [String] = []) -> RecognizedSpan {
        let tokens = text.split(separator: " ").map(String.init)
        let words = tokens.enumerated().map { index, token in
            RecognizedWord(text: " " + token, startSeconds: start + Double(index) * spacing,
                           endSeconds: start + Double(index) * spacing + spacing * 0.8, confidence: probability)
        }
        return RecognizedSpan(startSeconds: start, endSeconds: start + Double(tokens.count) * spacing,
                              text: text, words: words, alternatives: alternatives.map { (text: $0, score: -0.5) })
    }

    /// A 16 kHz mono Float32 buffer of `seconds` of a quiet 150 Hz tone.
    package static func buffer(seconds: Double, amplitude: Float = 0.1) -> AVAudioPCMBuffer {
        let rate = Transcriber.sampleRate
        let format = AVAudioFormat(standardFormatWithSampleRate: rate, channels: 1)!
        let frames = AVAudioFrameCount(seconds * rate)
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        let samples = buffer.floatChannelData![0]
        for index in 0..<Int(frames) {
            samples[index] = amplitude * sin(2 * .pi * 150 * Float(index) / Float(rate))
        }
        return buffer
    }
}
