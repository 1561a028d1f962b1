import AVFoundation
import Foundation
import Testing

/// What Apple code can do with these classes as imported from Objective-C:
/// override `open` lifecycle and conversion methods, and use `@Observable`
/// through `import AVFoundation` alone.
@Suite(.serialized) struct OpenAPITests {
    /// An engine subclass that counts its lifecycle calls, as test doubles do.
    private final class CountingEngine: AVAudioEngine, @unchecked Sendable {
        var calls: [String] = []
        override func prepare() { calls.append("prepare"); super.prepare() }
        override func start() throws { calls.append("start"); try super.start() }
        override func pause() { calls.append("pause"); super.pause() }
        override func stop() { calls.append("stop"); super.stop() }
        override func reset() { calls.append("reset"); super.reset() }
    }

    /// A converter subclass that observes conversions.
    private final class CountingConverter: AVAudioConverter {
        var conversions = 0
        override func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
            conversions += 1
            try super.convert(to: outputBuffer, from: inputBuffer)
        }
        @discardableResult
        override func convert(to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer,
                              withInputFrom inputBlock: AVAudioConverterInputBlock) -> AVAudioConverterOutputStatus {
            conversions += 1
            return super.convert(to: outputBuffer, error: outError, withInputFrom: inputBlock)
        }
    }

    @Observable final class Level {
        var decibels = -160.0
    }

    @Test func lifecycleMethodsCanBeOverridden() throws {
        let engine = CountingEngine()
        engine.prepare()
        try engine.start()
        engine.pause()
        engine.reset()
        engine.stop()
        #expect(engine.calls == ["prepare", "start", "pause", "reset", "stop"])
    }

    @Test func conversionCanBeOverridden() throws {
        let float = try #require(AVAudioFormat(standardFormatWithSampleRate: 16_000, channels: 1))
        let int16 = try #require(AVAudioFormat(commonFormat: .pcmFormatInt16, sampleRate: 16_000, channels: 1, interleaved: true))
        let converter = try #require(CountingConverter(from: float, to: int16))
        let input = AudioSignals.buffer(float, planar: [[0.5, -0.5]])
        let output = try #require(AVAudioPCMBuffer(pcmFormat: int16, frameCapacity: 2))
        try converter.convert(to: output, from: input)
        var given = false
        converter.convert(to: output, error: nil) { _, status in
            status.pointee = given ? .endOfStream : .haveData
            defer { given = true }
            return given ? nil : input
        }
        #expect(converter.conversions == 2 && output.int16ChannelData![0][0] == 16_384)
    }

    @Test func observableComesWithAVFoundation() async {
        let level = Level()
        let changed = Changed()
        withObservationTracking { _ = level.decibels } onChange: { changed.mark() }
        level.decibels = -20
        #expect(changed.value)
    }

    private final class Changed: @unchecked Sendable {
        private let lock = NSLock()
        private var flag = false
        func mark() { lock.lock(); flag = true; lock.unlock() }
        var value: Bool { lock.lock(); defer { lock.unlock() }; return flag }
    }
}
