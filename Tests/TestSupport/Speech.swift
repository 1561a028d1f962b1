import Foundation

/// Audio made at test time: synthetic speech from espeak-ng, silence and noise.
public enum SyntheticAudio {
    /// Speaks `text` with espeak-ng into a WAV file in `directory`.
    /// - Throws: when espeak-ng is missing (`Scripts/setup.sh` installs it).
    public static func speak(_ text: String, voice: String = "en-us", wordsPerMinute: Int = 150,
                             in directory: URL, name: String = "speech.wav") throws -> URL {
        let url = directory.appendingPathComponent(name)
        try run("/usr/bin/espeak-ng", ["-v", voice, "-s", String(wordsPerMinute), "-w", url.path, text])
        return url
    }

    /// Runs a tool and waits; throws with its output when it fails.
    public static func run(_ tool: String, _ arguments: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw FixtureError("\(tool) is not installed; run Scripts/setup.sh")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError("\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: output, as: UTF8.self))")
        }
    }

    /// Concatenates audio files with sox (same rate and channels).
    public static func concatenate(_ files: [URL], into url: URL) throws -> URL {
        try run("/usr/bin/sox", files.map(\.path) + [url.path])
        return url
    }

    /// `seconds` of digital silence at 16 kHz.
    public static func silence(seconds: Double) -> [Float] {
        [Float](repeating: 0, count: Int(seconds * 16_000))
    }

    /// `seconds` of low white noise (deterministic) at 16 kHz, peak `amplitude`.
    public static func noise(seconds: Double, amplitude: Float = 0.003) -> [Float] {
        var state: UInt32 = 12345
        return (0..<Int(seconds * 16_000)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return (Float(state >> 8) / Float(1 << 24) * 2 - 1) * amplitude
        }
    }
}

/// A fixture could not be prepared.
public struct FixtureError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
