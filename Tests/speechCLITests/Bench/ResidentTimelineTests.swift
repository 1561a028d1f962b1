import Foundation
import Testing
@testable import SpeechCLI

@Suite struct ResidentTimelineTests {
    static func point(_ audio: Double, _ resident: Double) -> ResidentTimeline.Point {
        ResidentTimeline.Point(audioSeconds: audio, wallSeconds: audio / 10, residentMegabytes: resident,
                               peakResidentMegabytes: resident + 5)
    }

    /// Feeds progress in 100 ms steps, as the recognizer reports it, up to `end` seconds.
    static func timeline(interval: Double, end: Double) -> ResidentTimeline {
        var timeline = ResidentTimeline(intervalSeconds: interval)
        timeline.recordIfDue(point(0, 100), atAudioSeconds: 0)
        let samplesPerStep = 1_600
        var samples = 0
        while samples < Int(end * 16_000) {
            samples += samplesPerStep
            let seconds = Double(samples) / 16_000
            timeline.recordIfDue(point(seconds, 100 + seconds / 100), atAudioSeconds: seconds)
        }
        timeline.recordEnd(point(end, 200))
        return timeline
    }

    @Test func measuresAtTheStartEveryIntervalAndTheEnd() {
        let timeline = Self.timeline(interval: 300, end: 3_600 + 12.3)
        let positions = timeline.points.map(\.audioSeconds)
        #expect(positions.count == 14)
        #expect(positions.first == 0)
        // Each mark is measured on the step that reaches it, not one step late.
        for (index, mark) in stride(from: 300.0, through: 3_600, by: 300).enumerated() {
            #expect(abs(positions[index + 1] - mark) < 1e-9, "mark \(mark): \(positions[index + 1])")
        }
        #expect(positions.last == 3_612.3)
    }

    @Test func anEndOnAMarkIsMeasuredOnce() {
        let timeline = Self.timeline(interval: 5, end: 10)
        #expect(timeline.points.map(\.audioSeconds) == [0, 5, 10])
    }

    @Test func aShortStreamHasTheStartAndTheEnd() {
        let timeline = Self.timeline(interval: 300, end: 11)
        #expect(timeline.points.map(\.audioSeconds) == [0, 11])
        #expect(timeline.steadyRangeMegabytes == nil)
    }

    @Test func aLongStepPastSeveralMarksGivesOnePoint() {
        var timeline = ResidentTimeline(intervalSeconds: 1)
        timeline.recordIfDue(Self.point(0, 1), atAudioSeconds: 0)
        timeline.recordIfDue(Self.point(3.5, 1), atAudioSeconds: 3.5)
        #expect(!timeline.isDue(atAudioSeconds: 3.9))
        #expect(timeline.isDue(atAudioSeconds: 4))
        #expect(timeline.points.map(\.audioSeconds) == [0, 3.5])
    }

    @Test func steadyRangeLeavesOutTheStart() {
        var timeline = ResidentTimeline(intervalSeconds: 10)
        for (audio, resident) in [(0.0, 50.0), (10, 420), (20, 431), (25, 425)] {
            timeline.recordIfDue(Self.point(audio, resident), atAudioSeconds: audio)
            if audio == 25 { timeline.recordEnd(Self.point(audio, resident)) }
        }
        #expect(timeline.steadyRangeMegabytes == 420...431)
    }

    @Test func clockTimes() {
        #expect(ResidentTimeline.clockTime(0) == "0:00:00")
        #expect(ResidentTimeline.clockTime(300) == "0:05:00")
        #expect(ResidentTimeline.clockTime(3_612.3) == "1:00:12")
    }

    @Test func tableListsEveryPoint() {
        let table = Self.timeline(interval: 300, end: 700).table
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines[0] == "RSS timeline (every 0:05:00 of audio)")
        #expect(lines[1] == "  audio          wall        RSS       peak")
        #expect(lines[2] == "  0:00:00       0.0 s   100.0 MB   105.0 MB", "\(table)")
        #expect(lines[3].hasPrefix("  0:05:00 "), "\(table)")
        #expect(lines[5].hasPrefix("  0:11:40 "), "\(table)")
        #expect(lines.last == "RSS after the start: 103.0–200.0 MB (spread 97.0 MB)", "\(table)")
    }

    @Test func jsonHasTheIntervalPointsAndSteadyRange() throws {
        let data = try JSONOutput.encode(Self.timeline(interval: 300, end: 700))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
        #expect(object["intervalSeconds"] as? Double == 300)
        let points = try #require(object["points"] as? [[String: Any]])
        #expect(points.count == 4)
        #expect(Set(points[0].keys) == ["audioSeconds", "wallSeconds", "residentMegabytes", "peakResidentMegabytes"])
        #expect(object["steadyMinimumMegabytes"] as? Double == 103)
        #expect(object["steadyMaximumMegabytes"] as? Double == 200)
    }
}
