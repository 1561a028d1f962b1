import Foundation
import SpeechEngine
@testable import SpeechService
import TestSupport
import Testing

/// A service started in the test on an ephemeral loopback port (and a
/// socket in a temporary folder), asked with the real curl.
final class ServiceFixture: @unchecked Sendable {
    let service: RecognitionService
    let folder: URL
    var socketPath: String { folder.appendingPathComponent("speech.sock").path }
    var baseURL: String { "http://127.0.0.1:\(service.port)" }

    /// Starts a service whose model loads on first use (`whisper-tiny.en` by default).
    init(model: ModelName = .whisperTinyEn, configure: (inout ServiceConfiguration) -> Void = { _ in }) throws {
        folder = try Fixtures.temporaryDirectory("speech-serve-test")
        var configuration = ServiceConfiguration()
        configuration.port = 0
        configuration.modelName = model.rawValue
        configuration.isEnglishOnly = !model.isMultilingual
        configuration.socketPath = folder.appendingPathComponent("speech.sock").path
        configuration.shutdownGraceSeconds = 2
        configure(&configuration)
        service = RecognitionService(configuration: configuration) { try Models.transcriber(model) }
        try service.start()
    }

    deinit {
        service.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// An HTTP answer: status, body, and response headers (lower-cased names).
    struct Answer {
        var status: Int
        var body: Data
        var headers: [String: String]
        var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object.
        func json() throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: body) as? [String: Any])
        }

        /// `error.code` of an OpenAI-shaped error body.
        var errorCode: String? {
            ((try? json())?["error"] as? [String: Any])?["code"] as? String
        }
    }

    /// Runs curl against `path` with `arguments` (e.g. `-F file=@…`).
    ///
    /// Awaits curl's exit without blocking a thread: the service's jobs run
    /// in tasks, and a test holding the cooperative pool's few threads while
    /// its request waits for such a job would wait forever.
    func curl(_ path: String, _ arguments: [String] = []) async throws -> Answer {
        let bodyURL = folder.appendingPathComponent("body-\(UUID().uuidString)")
        let headerURL = folder.appendingPathComponent("headers-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: bodyURL)
            try? FileManager.default.removeItem(at: headerURL)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-S", "--max-time", "300", "-o", bodyURL.path, "-D", headerURL.path,
                             "-w", "%{http_code}"] + arguments + [baseURL + path]
        let statusURL = folder.appendingPathComponent("status-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: statusURL.path, contents: nil)
        let statusHandle = try FileHandle(forWritingTo: statusURL)
        defer { try? FileManager.default.removeItem(at: statusURL) }
        process.standardOutput = statusHandle
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume()
            }
        }
        try? statusHandle.close()
        let status = (try? String(contentsOf: statusURL, encoding: .utf8)) ?? ""
        var headers: [String: String] = [:]
        let headerText = (try? String(contentsOf: headerURL, encoding: .utf8)) ?? ""
        for line in headerText.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Answer(status: Int(status) ?? 0, body: (try? Data(contentsOf: bodyURL)) ?? Data(), headers: headers)
    }

    /// A WAV file of `seconds` of silence in the fixture's folder.
    func silenceFile(seconds: Double, name: String = "silence.wav") throws -> URL {
        let url = folder.appendingPathComponent(name)
        try SyntheticAudio.run("/usr/bin/sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", url.path,
                                               "trim", "0", String(seconds)])
        return url
    }

    /// A file of `byteCount` bytes that is not audio.
    func junkFile(byteCount: Int, name: String = "junk.bin") throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(repeating: 0x41, count: byteCount).write(to: url)
        return url
    }
}
