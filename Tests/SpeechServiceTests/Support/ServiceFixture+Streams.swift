import Foundation
@testable import SpeechService
import Testing

/// Live-stream helpers over the real curl: create a stream, send audio
/// chunks, follow its event stream in a background curl, parse the events.
extension ServiceFixture {
    /// One server-sent event as curl received it.
    struct Event {
        var id: Int
        var name: String
        var data: [String: Any]
        var text: String { data["text"] as? String ?? "" }
        var start: Double { data["start"] as? Double ?? -1 }
        var end: Double { data["end"] as? Double ?? -1 }
        var errorCode: String? { (data["error"] as? [String: Any])?["code"] as? String }
    }

    /// `POST /v1/audio/streams?QUERY`; returns the answer and the new id (if created).
    func createStream(_ query: String = "") async throws -> (answer: Answer, id: String?) {
        let answer = try await curl(RecognitionService.streamsPath + (query.isEmpty ? "" : "?" + query), ["-X", "POST"])
        return (answer, (try? answer.json())?["id"] as? String)
    }

    /// Sends `bytes` as one audio request (`?finish=true` when `finishing`).
    func sendAudio(_ id: String, _ bytes: Data, finishing: Bool = false, extra: [String] = []) async throws -> Answer {
        let chunk = folder.appendingPathComponent("chunk-\(UUID().uuidString)")
        try bytes.write(to: chunk)
        defer { try? FileManager.default.removeItem(at: chunk) }
        return try await curl(RecognitionService.streamsPath + "/\(id)/audio" + (finishing ? "?finish=true" : ""),
                              ["-H", "Content-Type: application/octet-stream", "--data-binary", "@\(chunk.path)"] + extra)
    }

    /// A background `curl -N` on a stream's events, written to a file as they come.
    final class EventFollower: @unchecked Sendable {
        let process = Process()
        let output: URL

        init(url: String, output: URL) throws {
            self.output = output
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["-s", "-N", "--max-time", "300", "-o", output.path, url]
            try process.run()
        }

        /// The events received so far.
        var events: [Event] { ServiceFixture.parseEvents((try? String(contentsOf: output, encoding: .utf8)) ?? "") }

        /// Waits until curl exits (the stream ended) or `seconds` pass; the events.
        func waitForEnd(seconds: Double = 240) async -> [Event] {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
            if process.isRunning { process.terminate() }
            return events
        }

        /// Waits until an event satisfies `condition` or `seconds` pass.
        func waitFor(seconds: Double, _ condition: (Event) -> Bool) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if events.contains(where: condition) { return true }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return false
        }
    }

    /// Starts following `id`'s events.
    func followEvents(_ id: String) throws -> EventFollower {
        try EventFollower(url: baseURL + RecognitionService.streamsPath + "/\(id)/events",
                          output: folder.appendingPathComponent("events-\(UUID().uuidString)"))
    }

    /// `id:`, `event:` and `data:` lines, blank-line separated.
    static func parseEvents(_ text: String) -> [Event] {
        text.components(separatedBy: "\n\n").compactMap { block in
            var event = Event(id: 0, name: "", data: [:])
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { event.id = Int(line.dropFirst(4)) ?? 0 }
                if line.hasPrefix("event: ") { event.name = String(line.dropFirst(7)) }
                if line.hasPrefix("data: "),
                   let object = try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any] {
                    event.data = object
                }
            }
            return event.name.isEmpty ? nil : event
        }
    }

    /// 16 kHz samples as s16le bytes, the way a capture program sends them.
    static func s16le(_ samples: [Float]) -> Data {
        var data = Data(capacity: samples.count * 2)
        for sample in samples {
            let value = Int16(max(-32_768, min(32_767, (sample * 32_768).rounded())))
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }
}
