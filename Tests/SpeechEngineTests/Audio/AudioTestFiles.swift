import CSndFile
import Foundation
import TestSupport

/// Builds audio files for the audio front-end tests: converts corpus clips with sox,
/// writes formats sox cannot (MP3, Opus) with libsndfile's encoders, and makes
/// damaged files.
enum AudioTestFiles {
    /// The JFK clip (11 s, 16 kHz mono, public domain), read in place from ../shared.
    static var jfk: URL { Fixtures.corpusClip("audio/jfk/jfk_openai_whisper.wav") }

    /// Runs `sox` with `arguments`; throws when it is missing or fails.
    static func sox(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sox"] + arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFileError(message: "sox \(arguments.joined(separator: " ")) failed (\(process.terminationStatus))")
        }
    }

    /// Writes interleaved float samples with libsndfile in `format` (an `SF_FORMAT_*` combination).
    static func write(_ interleaved: [Float], sampleRate: Int, channels: Int, format: Int32, to url: URL) throws {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = Int32(channels)
        info.format = format
        guard let file = sf_open(url.path, Int32(SFM_WRITE), &info) else {
            throw TestFileError(message: "libsndfile cannot write \(url.lastPathComponent): \(String(cString: sf_strerror(nil)))")
        }
        defer { sf_close(file) }
        let frames = interleaved.count / channels
        let written = interleaved.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(frames)) }
        guard written == frames else {
            throw TestFileError(message: "libsndfile wrote \(written) of \(frames) frames to \(url.lastPathComponent)")
        }
    }

    /// The first `byteCount` bytes of `source`, written to `target`.
    static func truncate(_ source: URL, to byteCount: Int, as target: URL) throws {
        try Data(try Data(contentsOf: source).prefix(byteCount)).write(to: target)
    }

    /// A sine of `hz` at `amplitude`, `seconds` long at `sampleRate`.
    static func sine(hz: Double, seconds: Double, sampleRate: Double, amplitude: Float = 0.5) -> [Float] {
        (0..<Int(seconds * sampleRate)).map { amplitude * Float(sin(2 * Double.pi * hz * Double($0) / sampleRate)) }
    }

    /// The normalised cross-correlation of `a` and `b` at the best lag in `lags`.
    static func bestCorrelation(_ a: [Float], _ b: [Float], lags: ClosedRange<Int>) -> (lag: Int, value: Double) {
        var best = (lag: 0, value: -2.0)
        for lag in lags {
            var dot = 0.0, energyA = 0.0, energyB = 0.0
            for index in 0..<a.count {
                let other = index + lag
                guard other >= 0 && other < b.count else { continue }
                dot += Double(a[index]) * Double(b[other])
                energyA += Double(a[index]) * Double(a[index])
                energyB += Double(b[other]) * Double(b[other])
            }
            let value = dot / max(1e-12, (energyA * energyB).squareRoot())
            if value > best.value { best = (lag, value) }
        }
        return best
    }
}

/// A failure while preparing a test file.
struct TestFileError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
