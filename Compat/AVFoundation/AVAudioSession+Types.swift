// AVAudioSession's nested value types: categories, modes, options and
// permission states, with Apple's raw values.

extension AVAudioSession {
    /// An audio session category.
    public struct Category: Hashable, RawRepresentable, @unchecked Sendable {
        /// The category's name.
        public let rawValue: String
        /// Creates a category from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Audio that mixes with others and is silenced by the ring switch.
        public static let ambient = Category(rawValue: "AVAudioSessionCategoryAmbient")
        /// Routes to several outputs at once.
        public static let multiRoute = Category(rawValue: "AVAudioSessionCategoryMultiRoute")
        /// Recording and playback.
        public static let playAndRecord = Category(rawValue: "AVAudioSessionCategoryPlayAndRecord")
        /// Playback that continues with the ring switch silent.
        public static let playback = Category(rawValue: "AVAudioSessionCategoryPlayback")
        /// Recording.
        public static let record = Category(rawValue: "AVAudioSessionCategoryRecord")
        /// The default: ambient audio that silences others.
        public static let soloAmbient = Category(rawValue: "AVAudioSessionCategorySoloAmbient")
        /// Offline processing (deprecated on Apple platforms).
        public static let audioProcessing = Category(rawValue: "AVAudioSessionCategoryAudioProcessing")
    }

    /// An audio session mode.
    public struct Mode: Hashable, RawRepresentable, @unchecked Sendable {
        /// The mode's name.
        public let rawValue: String
        /// Creates a mode from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The default mode.
        public static let `default` = Mode(rawValue: "AVAudioSessionModeDefault")
        /// Game voice chat.
        public static let gameChat = Mode(rawValue: "AVAudioSessionModeGameChat")
        /// Minimal signal processing, for measurement (speech recognition samples use it).
        public static let measurement = Mode(rawValue: "AVAudioSessionModeMeasurement")
        /// Movie playback.
        public static let moviePlayback = Mode(rawValue: "AVAudioSessionModeMoviePlayback")
        /// Spoken audio such as podcasts.
        public static let spokenAudio = Mode(rawValue: "AVAudioSessionModeSpokenAudio")
        /// Video chat.
        public static let videoChat = Mode(rawValue: "AVAudioSessionModeVideoChat")
        /// Video recording.
        public static let videoRecording = Mode(rawValue: "AVAudioSessionModeVideoRecording")
        /// Voice chat (VoIP).
        public static let voiceChat = Mode(rawValue: "AVAudioSessionModeVoiceChat")
        /// Voice prompts such as navigation.
        public static let voicePrompt = Mode(rawValue: "AVAudioSessionModeVoicePrompt")
        /// Short-form video (iOS 26).
        public static let shortFormVideo = Mode(rawValue: "AVAudioSessionModeShortFormVideo")
    }

    /// Options refining a category.
    public struct CategoryOptions: OptionSet, @unchecked Sendable {
        /// The option bits.
        public let rawValue: UInt
        /// Creates options from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Mix with other apps' audio.
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        /// Lower other apps' audio.
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        /// Allow Bluetooth hands-free input (deprecated in iOS 26).
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        /// Allow Bluetooth hands-free input (iOS 26 name).
        public static let allowBluetoothHFP = CategoryOptions(rawValue: 0x4)
        /// Route to the speaker by default.
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        /// Interrupt spoken audio and mix with others.
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        /// Allow Bluetooth A2DP output.
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        /// Allow AirPlay output.
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
        /// Keep recording when the microphone is muted by hardware.
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
        /// Prefer far-field input when a Bluetooth device offers it; needs
        /// `allowBluetoothHFP` (iOS 26.2).
        /// - Note: On Linux the option is kept and reported; ALSA capture has
        ///   no Bluetooth routing for it to change.
        @available(iOS 26.2, *)
        public static let farFieldInput = CategoryOptions(rawValue: 0x40000)
        /// Full-bandwidth Bluetooth recording where the route supports it
        /// (iOS 26), falling back to `allowBluetoothHFP`.
        /// - Note: On Linux the option is kept and reported; it does not change
        ///   the ALSA capture.
        @available(iOS 26.0, *)
        public static let bluetoothHighQualityRecording = CategoryOptions(rawValue: 0x80000)
    }

    /// Options for `setActive(_:options:)`.
    public struct SetActiveOptions: OptionSet, @unchecked Sendable {
        /// The option bits.
        public let rawValue: UInt
        /// Creates options from bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Tell other apps when this session deactivates.
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// How the session shares the audio route.
    public enum RouteSharingPolicy: UInt, @unchecked Sendable {
        /// The system default.
        case `default` = 0
        /// Long-form audio (music, podcasts).
        case longFormAudio = 1
        /// Independent of the system route.
        case independent = 2
        /// Long-form video.
        case longFormVideo = 3
    }

    /// Record permission states (deprecated in iOS 17 in favour of
    /// `AVAudioApplication.recordPermission`).
    public enum RecordPermission: UInt, @unchecked Sendable {
        /// Not asked yet.
        case undetermined = 1_970_168_948
        /// Refused (on Linux: the capture device did not open).
        case denied = 1_684_369_017
        /// Allowed (on Linux: the capture device opened).
        case granted = 1_735_552_628
    }
}
