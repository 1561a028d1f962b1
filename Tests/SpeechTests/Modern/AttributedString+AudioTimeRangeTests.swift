import Foundation
import Testing
@testable import Speech

/// `AttributedString.rangeOfAudioTimeRangeAttributes(intersecting:)` and the
/// speech attribute scope.
@Suite("AttributedString audio time ranges")
struct AttributedStringAudioTimeRangeTests {
    private func time(_ seconds: Double) -> CMTime { CMTime(seconds: seconds, preferredTimescale: 1_000) }

    /// "one two, three" with words at 0–1, 1–2 and 3–4 s, and an untimed ", ".
    private func sample() -> AttributedString {
        var text = AttributedString()
        for (word, start) in [("one", 0.0), (" two", 1.0)] {
            var run = AttributedString(word)
            run.audioTimeRange = CMTimeRange(start: time(start), end: time(start + 1))
            text += run
        }
        text += AttributedString(",")
        var three = AttributedString(" three")
        three.audioTimeRange = CMTimeRange(start: time(3), end: time(4))
        three.transcriptionConfidence = 0.5
        text += three
        return text
    }

    @Test("the range spans the first to the last intersecting run, untimed runs between included")
    func intersecting() throws {
        let text = sample()
        let middle = try #require(text.rangeOfAudioTimeRangeAttributes(
            intersecting: CMTimeRange(start: time(1.5), end: time(3.5))))
        #expect(String(text[middle].characters) == " two, three")
        let first = try #require(text.rangeOfAudioTimeRangeAttributes(
            intersecting: CMTimeRange(start: time(0.2), end: time(0.4))))
        #expect(String(text[first].characters) == "one")
        // A point in time counts when a run contains it.
        let point = try #require(text.rangeOfAudioTimeRangeAttributes(
            intersecting: CMTimeRange(start: time(3.2), duration: .zero)))
        #expect(String(text[point].characters) == " three")
    }

    @Test("no intersecting run gives nil")
    func none() {
        let text = sample()
        #expect(text.rangeOfAudioTimeRangeAttributes(intersecting: CMTimeRange(start: time(2.1), end: time(2.9))) == nil)
        #expect(text.rangeOfAudioTimeRangeAttributes(intersecting: .invalid) == nil)
        #expect(AttributedString("untimed").rangeOfAudioTimeRangeAttributes(
            intersecting: CMTimeRange(start: .zero, end: time(10))) == nil)
    }

    @Test("the attributes read through dynamic lookup and encode their time range")
    func scope() throws {
        let text = sample()
        let ranges = text.runs[\.audioTimeRange].compactMap(\.0)
        #expect(ranges.count == 3)
        #expect(text.runs.compactMap(\.transcriptionConfidence) == [0.5])
        let range = CMTimeRange(start: time(1.25), end: time(2))
        let data = try JSONEncoder().encode(EncodedRange(range: range))
        #expect(try JSONDecoder().decode(EncodedRange.self, from: data).range == range)
    }

    /// Wraps the attribute's custom coding for a round trip.
    private struct EncodedRange: Codable {
        var range: CMTimeRange
        init(range: CMTimeRange) { self.range = range }
        init(from decoder: any Decoder) throws {
            range = try AttributeScopes.SpeechAttributes.TimeRangeAttribute.decode(from: decoder)
        }
        func encode(to encoder: any Encoder) throws {
            try AttributeScopes.SpeechAttributes.TimeRangeAttribute.encode(range, to: encoder)
        }
    }
}
