// Choosing where AVAudioEngine's input node captures from: the ALSA device
// (the default), an audio file or a synthetic signal. A SpeechCompat
// addition (API.md §2.6 "Linux design requirement"), not Apple API.

extension AVAudioEngine {
    /// Where an engine's `inputNode` gets its audio (SpeechCompat addition; not
    /// Apple API).
    ///
    /// Tests and demos pick a source either per engine,
    /// `AVAudioEngine(inputSource: .file(url))`, or for every engine the
    /// process creates with `AVAudioEngine()` (code written for Apple
    /// platforms, unchanged): `AVAudioEngine.InputSource.default = .file(url)`.
    /// A program run as a subprocess can be given a file through the
    /// environment: `SPEECHCOMPAT_AUDIO_INPUT_FILE=/path/clip.wav`.
    ///
    /// Every source is delivered at real-time pace, in 20 ms periods, in its
    /// own format (the input node's hardware format); file and synthetic
    /// sources end like an ALSA `file` plugin's infile: taps stop receiving
    /// audio and the engine keeps running until stopped.
    public struct InputSource: Sendable, CustomStringConvertible {
        /// Makes the capture source for one engine run.
        let makeSource: @Sendable () -> AudioCaptureSource
        /// What the source is, for logs and test messages.
        public let description: String

        /// The ALSA capture PCM `device`, optionally defined in an ALSA
        /// configuration file (e.g. a `file` plugin playing raw PCM).
        public static func alsa(device: String, configurationFile: URL? = nil) -> InputSource {
            InputSource(makeSource: {
                ALSACaptureSource(configuration: ALSAConfiguration(deviceName: device, configurationPath: configurationFile?.path))
            }, description: "ALSA device \(device)")
        }

        /// An audio file libsndfile reads, played once in its own rate and
        /// channel count. `start()` throws the file's error if it cannot be read.
        public static func file(_ url: URL) -> InputSource {
            InputSource(makeSource: { FileCaptureSource(url: url) }, description: "file \(url.path)")
        }

        /// A synthetic signal: `signal(frame, channel)` gives each sample in
        /// [-1, 1]. Ends after `duration` seconds, or never when `nil`.
        public static func synthetic(sampleRate: Double = 48_000, channels: Int = 1, duration: TimeInterval? = nil,
                                     signal: @escaping @Sendable (_ frame: Int, _ channel: Int) -> Float) -> InputSource {
            InputSource(makeSource: {
                SyntheticCaptureSource(rate: Int(sampleRate.rounded()), channels: max(1, channels),
                                       frameCount: duration.map { Int(($0 * sampleRate).rounded()) }, signal: signal)
            }, description: "synthetic \(Int(sampleRate)) Hz × \(channels)")
        }

        /// What the environment chooses: `SPEECHCOMPAT_AUDIO_INPUT_FILE` when
        /// set, else the ALSA device of `SPEECHCOMPAT_ALSA_DEVICE` (and
        /// `SPEECHCOMPAT_ALSA_CONFIG`), else ALSA's `default`.
        public static var environment: InputSource {
            if let path = ProcessInfo.processInfo.environment[inputFileVariable], !path.isEmpty {
                return .file(URL(fileURLWithPath: path))
            }
            return InputSource(makeSource: { ALSACaptureSource(configuration: .fromEnvironment()) },
                               description: "ALSA device from the environment")
        }

        /// The environment variable naming an input file for every engine.
        public static let inputFileVariable = "SPEECHCOMPAT_AUDIO_INPUT_FILE"

        /// The source `AVAudioEngine()` uses; `.environment` until set.
        public static var `default`: InputSource {
            get { DefaultInputSource.shared.value }
            set { DefaultInputSource.shared.value = newValue }
        }
    }
}

/// The process-wide default input source, guarded by a lock.
private final class DefaultInputSource: @unchecked Sendable {
    static let shared = DefaultInputSource()
    private let lock = NSLock()
    private var stored: AVAudioEngine.InputSource?

    var value: AVAudioEngine.InputSource {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored ?? .environment
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}
