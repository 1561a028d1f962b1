import Foundation
import Speech
import SpeechEngine

/// Builders for scripted hypotheses: words with times and probabilities.
enum Script {
    /// A hypothesis over `words` spoken one every `spacing` seconds from `start`.
    static func hypothesis(_ text: String, start: Double = 0.2, spacing: Double = 0.4, probability: Double = 0.9,
                           alternatives: [String] = []) -> StreamingHypothesis {
        let tokens = text.split(separator: " ").map(String.init)
        let words = tokens.enumerated().map { index, token in
            WordTiming(word: " " + token, startSeconds: start + Double(index) * spacing,
                       endSeconds: start + Double(index) * spacing + spacing * 0.8, probability: probability)
        }
        return StreamingHypothesis(startSeconds: start, endSeconds: start + Double(tokens.count) * spacing,
                                   text: text, words: words,
                                   alternatives: alternatives.map { Alternative(text: $0, score: -0.5) })
    }

    /// A 16 kHz mono Float32 buffer of `seconds` of a quiet 150 Hz tone.
    static func buffer(seconds: Double, amplitude: Float = 0.1) -> AVAudioPCMBuffer {
        let format = AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1)!
        let frames = AVAudioFrameCount(seconds * 16_000)
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        let samples = buffer.floatChannelData![0]
        for index in 0..<Int(frames) {
            samples[index] = amplitude * sin(2 * .pi * 150 * Float(index) / 16_000)
        }
        return buffer
    }
}
