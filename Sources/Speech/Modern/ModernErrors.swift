import AVFoundation
import CoreMedia
import Foundation

/// The modern face's own errors (not mapped from the engine), as
/// `SFSpeechError`s with a message saying what to do.
enum ModernErrors {
    /// A buffer in a format the modules do not take.
    static func unexpectedFormat(_ format: AVAudioFormat) -> SFSpeechError {
        error(.unexpectedAudioFormat,
              "The buffer's format (\(format.sampleRate) Hz, \(format.channelCount) channel(s), "
              + "\(format.commonFormat)) is not one the modules accept. Convert buffers to "
              + "SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith:) (16 kHz mono Int16 or Float32) "
              + "with AVAudioConverter; the analyzer does not convert buffer input.")
    }

    /// Modules that list formats but share none of them.
    static func incompatibleFormats(_ moduleFormats: [[AVAudioFormat]]) -> SFSpeechError {
        let lists = moduleFormats.enumerated().map { index, formats in
            "module \(index + 1): " + formats.map { "\($0.sampleRate) Hz \($0.channelCount) ch \($0.commonFormat)" }
                .joined(separator: ", ")
        }.joined(separator: "; ")
        return error(.incompatibleAudioFormats,
                     "The analyzer's modules have no audio format in common (\(lists)), so no input can serve "
                     + "them all. Analyze with modules that share a format: "
                     + "SpeechAnalyzer.bestAvailableAudioFormat(compatibleWith:) returns nil for this module list.")
    }

    /// An input whose time-code overlaps or precedes earlier input.
    static func disordered(_ start: CMTime, expected: CMTime) -> SFSpeechError {
        error(.audioDisordered,
              "An input's bufferStartTime (\(start.seconds) s) overlaps or precedes earlier input, "
              + "which ended at \(expected.seconds) s. Time-codes must increase; leave a gap to skip time.")
    }

    /// A module that belongs to another analyzer.
    static func moduleInUse(_ module: any SpeechModule) -> SFSpeechError {
        error(.moduleOutputFailed,
              "A \(type(of: module)) was already used by another SpeechAnalyzer. "
              + "Each module can be used by one analyzer only: create a new module.")
    }

    /// A module the framework does not know how to run.
    static func unsupportedModule(_ module: any SpeechModule) -> SFSpeechError {
        error(.moduleOutputFailed,
              "\(type(of: module)) is not a module of the Speech framework. Use SpeechTranscriber, "
              + "DictationTranscriber or SpeechDetector.")
    }

    /// Too many analyses at once.
    static func insufficientResources(limit: Int) -> SFSpeechError {
        error(.insufficientResources,
              "Too many speech analyses are running at once (at most \(limit)). "
              + "Finish another SpeechAnalyzer first, or raise SPEECHCOMPAT_MAX_ANALYSES.")
    }

    /// A locale no model serves.
    static func unsupportedLocale(_ locale: Locale) -> SFSpeechError {
        error(.cannotAllocateUnsupportedLocale,
              "No Whisper model supports the locale \(locale.identifier(.bcp47)). "
              + "Use SpeechTranscriber.supportedLocale(equivalentTo:) to find a supported one.")
    }

    /// No model for a locale can be used.
    static func noModel(_ locale: Locale) -> SFSpeechError {
        error(.noModel,
              "No Whisper model serves the locale \(locale.identifier(.bcp47)). "
              + "Use SpeechTranscriber.supportedLocale(equivalentTo:) to find a supported one.")
    }

    /// Reserving beyond the maximum.
    static func tooManyLocales(_ locale: Locale, maximum: Int) -> SFSpeechError {
        error(.tooManyAssetLocalesAllocated,
              "Cannot reserve \(locale.identifier(.bcp47)): \(maximum) locales are reserved already, "
              + "the maximum. Release one with AssetInventory.release(reservedLocale:).")
    }

    /// Running a module whose locale is not reserved, with no room to reserve it.
    static func notReserved(_ locale: Locale, maximum: Int) -> SFSpeechError {
        error(.assetLocaleNotAllocated,
              "The locale \(locale.identifier(.bcp47)) is not reserved and \(maximum) locales are reserved "
              + "already. Release one with AssetInventory.release(reservedLocale:), or reserve this one.")
    }

    private static func error(_ code: SFSpeechError.Code, _ message: String) -> SFSpeechError {
        SFSpeechError(code, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
