import AVFoundation
import Foundation
import Speech

enum Order: String, CustomStringConvertible {
    case sequential, concurrent
    var description: String { rawValue }
}

/// One face, written as an app writes file transcription with it.
enum Face: String {
    case legacy, modern

    /// The final transcript of each file, in the files' order.
    func transcribe(_ files: [URL], _ order: Order) async throws -> [String] {
        switch (self, order) {
        case (.legacy, _):
            guard let recognizer = SFSpeechRecognizer(locale: Locale(identifier: "en-US")), recognizer.isAvailable else {
                throw BenchmarkError("speech recognition for en-US is not available: run Scripts/setup.sh")
            }
            recognizer.queue = OperationQueue()
            if order == .sequential {
                var texts: [String] = []
                for file in files { texts.append(try await Self.legacy(file, on: recognizer)) }
                return texts
            }
            return try await Self.all(files) { try await Self.legacy($0, on: recognizer) }
        case (.modern, .sequential):
            var texts: [String] = []
            for file in files { texts.append(try await Self.modern(file)) }
            return texts
        case (.modern, .concurrent):
            return try await Self.all(files, Self.modern)
        }
    }

    private static func all(_ files: [URL], _ transcribe: @escaping @Sendable (URL) async throws -> String) async throws -> [String] {
        try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, file) in files.enumerated() {
                group.addTask { (index, try await transcribe(file)) }
            }
            var texts = Array(repeating: "", count: files.count)
            for try await (index, text) in group { texts[index] = text }
            return texts
        }
    }

    private static func legacy(_ file: URL, on recognizer: SFSpeechRecognizer) async throws -> String {
        let request = SFSpeechURLRecognitionRequest(url: file)
        request.shouldReportPartialResults = false
        return try await withCheckedThrowingContinuation { continuation in
            let once = Once(continuation)
            recognizer.recognitionTask(with: request) { result, error in
                if let error {
                    once.resume(throwing: error)
                } else if let result, result.isFinal {
                    once.resume(returning: result.bestTranscription.formattedString)
                }
            }
        }
    }

    private static func modern(_ file: URL) async throws -> String {
        let transcriber = SpeechTranscriber(locale: Locale(identifier: "en-US"), preset: .transcription)
        let analyzer = SpeechAnalyzer(modules: [transcriber])
        let audio = try AVAudioFile(forReading: file)
        async let text = transcriber.results.reduce(into: "") { text, result in
            if result.isFinal { text += String(result.text.characters) }
        }
        try await analyzer.start(inputAudioFile: audio, finishAfterFile: true)
        return try await text.trimmingCharacters(in: .whitespaces)
    }
}

/// Resumes a continuation once (a task's handler may be called again after its final).
final class Once: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<String, any Error>?
    init(_ continuation: CheckedContinuation<String, any Error>) { self.continuation = continuation }
    func resume(returning text: String) { take()?.resume(returning: text) }
    func resume(throwing error: any Error) { take()?.resume(throwing: error) }
    private func take() -> CheckedContinuation<String, any Error>? {
        lock.withLock { defer { continuation = nil }; return continuation }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Wall and process CPU time of one run.
struct Measured<Value> {
    let value: Value
    let wallSeconds: Double
    let cpuSeconds: Double

    static func run(_ body: () async throws -> Value) async rethrows -> Measured {
        let cpuBefore = processCPUSeconds()
        let start = ContinuousClock.now
        let value = try await body()
        let wall = ContinuousClock.now - start
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        return Measured(value: value, wallSeconds: seconds, cpuSeconds: processCPUSeconds() - cpuBefore)
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
