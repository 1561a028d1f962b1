import Foundation

extension SpeechActivityDetector {
    /// Thresholds and timings of the detector. The defaults suit 16 kHz speech from
    /// ordinary microphones and the corpus; all levels are dBFS.
    public struct Configuration: Sendable, Equatable {
        /// Samples per analysis frame (default 320 = 20 ms).
        public var frameSampleCount: Int
        /// The band whose level and flatness are measured, in Hz (default 100–4000).
        public var bandHz: ClosedRange<Double>
        /// Frames quieter than this are never speech (default -65 dBFS: whispering into a
        /// quiet room reads -60 to -45).
        public var minimumLevelDB: Float
        /// Speech must be this far above the tracked noise floor (default 10 dB).
        public var noiseMarginDB: Float
        /// Frames whose spectral flatness exceeds this are noise-like (default 0.4;
        /// white noise measures ~0.56, voiced speech well under 0.3).
        public var maximumFlatness: Float
        /// How far back the noise floor (minimum level) looks, in seconds (default 1.5).
        public var noiseWindowSeconds: Double
        /// Consecutive speech-like frames needed to start speech (default 4 = 80 ms).
        public var onsetFrameCount: Int
        /// Consecutive other frames needed to end speech (default 15 = 300 ms).
        public var hangoverFrameCount: Int

        /// The default configuration (see each property).
        public init(frameSampleCount: Int = 320, bandHz: ClosedRange<Double> = 100...4_000,
                    minimumLevelDB: Float = -65, noiseMarginDB: Float = 10, maximumFlatness: Float = 0.4,
                    noiseWindowSeconds: Double = 1.5, onsetFrameCount: Int = 4, hangoverFrameCount: Int = 15) {
            precondition(frameSampleCount >= 16 && onsetFrameCount >= 1 && hangoverFrameCount >= 1,
                         "invalid speech detector configuration")
            self.frameSampleCount = frameSampleCount
            self.bandHz = bandHz
            self.minimumLevelDB = minimumLevelDB
            self.noiseMarginDB = noiseMarginDB
            self.maximumFlatness = maximumFlatness
            self.noiseWindowSeconds = noiseWindowSeconds
            self.onsetFrameCount = onsetFrameCount
            self.hangoverFrameCount = hangoverFrameCount
        }

        /// Duration of one frame in seconds.
        public var frameSeconds: Double { Double(frameSampleCount) / SpeechActivityDetector.sampleRate }
    }
}
