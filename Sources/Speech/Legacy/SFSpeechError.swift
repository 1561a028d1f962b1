import Foundation

/// The error domain of `SFSpeechError`.
///
/// Apple declares it in `SFErrors.h` (iOS 17, macOS 14).
/// - Note: On Linux the value is the same string, `"SFSpeechErrorDomain"`.
public let SFSpeechErrorDomain: String = "SFSpeechErrorDomain"

/// Errors of the Speech framework in `SFSpeechErrorDomain`: custom language
/// models, audio sources and (from iOS 26) the modern analyzer API.
///
/// On Apple platforms this is the bridged form of the `NS_ERROR_ENUM`
/// `SFSpeechErrorCode`: catch it as `SFSpeechError`, switch on `code`, or
/// match a code directly (`catch SFSpeechError.audioReadFailed`).
/// `error as NSError` has domain `SFSpeechErrorDomain` and the code's raw value.
/// - Note: On Linux this is a Swift struct conforming to `CustomNSError`.
///   Equality compares the code only, as bridged Cocoa errors compare their
///   codes. The legacy recognizer's runtime errors are not in this domain:
///   they are `NSError`s in `kAFAssistantErrorDomain` / `kLSRErrorDomain`
///   (see `SFSpeechRecognitionTask.error`).
public struct SFSpeechError: CustomNSError, Hashable, @unchecked Sendable {
    // @unchecked: `userInfo` is `[String: Any]` as in Apple's bridged errors;
    // it is immutable after creation.

    /// The codes of `SFSpeechErrorDomain`.
    ///
    /// Apple imports this as an open (non-frozen) `enum Code: Int`: a `switch`
    /// over it needs a `default:` because iOS 26 added codes as static members.
    /// - Note: On Linux this is a struct with static members of the same names,
    ///   so `case .timeout:` patterns and `Code(rawValue:)` work unchanged.
    ///   `init?(rawValue:)` accepts any value, as for imported Objective-C enums.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The integer code, as in `(error as NSError).code`.
        public let rawValue: Int

        /// Creates a code from its integer value; never fails (as for imported
        /// Objective-C enums, unknown values are kept).
        public init?(rawValue: Int) {
            self.rawValue = rawValue
        }

        fileprivate init(_ rawValue: Int) {
            self.rawValue = rawValue
        }

        /// There was an internal error.
        public static let internalServiceError = Code(1)
        /// The audio source could not be read.
        public static let audioReadFailed = Code(2)
        /// The custom language model templates were malformed.
        public static let undefinedTemplateClassName = Code(7)
        /// The custom language model file was malformed.
        public static let malformedSupplementalModel = Code(8)
        /// The operation timed out.
        public static let timeout = Code(12)
        /// A required parameter is missing or nil.
        public static let missingParameter = Code(13)

        /// The code's Apple name, or its number for codes without one.
        public var description: String {
            Code.names[rawValue].map { "SFSpeechError.Code.\($0)" } ?? "SFSpeechError.Code(\(rawValue))"
        }

        /// Whether `error` is an `SFSpeechError` with this code; makes
        /// `catch SFSpeechError.timeout` work as on Apple platforms.
        public static func ~= (pattern: Code, error: any Error) -> Bool {
            guard let speechError = error as? SFSpeechError else { return false }
            return speechError.code == pattern
        }
    }

    /// The error's code.
    public let code: Code
    /// Additional information: `NSLocalizedDescriptionKey`, `NSUnderlyingErrorKey`, …
    public let userInfo: [String: Any]

    /// Creates an error with a code and optional user info (the bridged-error
    /// initializer of Apple's SDK).
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.userInfo = userInfo
    }

    /// The domain of these errors: `SFSpeechErrorDomain`.
    public static var errorDomain: String { SFSpeechErrorDomain }
    /// The code's raw value, for `NSError` bridging.
    public var errorCode: Int { code.rawValue }
    /// The user info, with a default description when none was given.
    public var errorUserInfo: [String: Any] {
        var info = userInfo
        if info[NSLocalizedDescriptionKey] == nil {
            info[NSLocalizedDescriptionKey] = SFSpeechError.defaultDescription(for: code)
        }
        return info
    }

    /// Equal when the codes are equal.
    public static func == (lhs: SFSpeechError, rhs: SFSpeechError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// There was an internal error.
    public static var internalServiceError: Code { .internalServiceError }
    /// The audio source could not be read.
    public static var audioReadFailed: Code { .audioReadFailed }
    /// The custom language model templates were malformed.
    public static var undefinedTemplateClassName: Code { .undefinedTemplateClassName }
    /// The custom language model file was malformed.
    public static var malformedSupplementalModel: Code { .malformedSupplementalModel }
    /// The operation timed out.
    public static var timeout: Code { .timeout }
    /// A required parameter is missing or nil.
    public static var missingParameter: Code { .missingParameter }
}

@available(macOS 26.0, iOS 26.0, *)
extension SFSpeechError.Code {
    // Apple publishes no raw values for these; ours are private choices that
    // collide with none of the header's (1, 2, 7, 8, 12, 13). API.md §1.2.2.

    /// Input time codes overlap or precede prior input. (Linux raw value 3.)
    public static var audioDisordered: SFSpeechError.Code { .init(3) }
    /// The input is in an unexpected format. (Linux raw value 4.)
    public static var unexpectedAudioFormat: SFSpeechError.Code { .init(4) }
    /// No model is available or downloadable for the locale and options. (Linux raw value 5.)
    public static var noModel: SFSpeechError.Code { .init(5) }
    /// A module needs a locale that is not reserved. (Linux raw value 6.)
    public static var assetLocaleNotAllocated: SFSpeechError.Code { .init(6) }
    /// The app reserved too many locales. (Linux raw value 9.)
    public static var tooManyAssetLocalesAllocated: SFSpeechError.Code { .init(9) }
    /// The modules have no audio format in common. (Linux raw value 10.)
    public static var incompatibleAudioFormats: SFSpeechError.Code { .init(10) }
    /// A module's result task failed. (Linux raw value 11.)
    public static var moduleOutputFailed: SFSpeechError.Code { .init(11) }
    /// The requested asset locale is not supported. (Linux raw value 14.)
    public static var cannotAllocateUnsupportedLocale: SFSpeechError.Code { .init(14) }
    /// Not enough on-device resources. (Linux raw value 15.)
    public static var insufficientResources: SFSpeechError.Code { .init(15) }
}

extension SFSpeechError.Code {
    fileprivate static let names: [Int: String] = [
        1: "internalServiceError", 2: "audioReadFailed", 3: "audioDisordered", 4: "unexpectedAudioFormat",
        5: "noModel", 6: "assetLocaleNotAllocated", 7: "undefinedTemplateClassName",
        8: "malformedSupplementalModel", 9: "tooManyAssetLocalesAllocated", 10: "incompatibleAudioFormats",
        11: "moduleOutputFailed", 12: "timeout", 13: "missingParameter",
        14: "cannotAllocateUnsupportedLocale", 15: "insufficientResources",
    ]
}

extension SFSpeechError {
    fileprivate static func defaultDescription(for code: Code) -> String {
        switch code.rawValue {
        case 1: return "There was an internal error."
        case 2: return "The audio source could not be read."
        case 3: return "The audio input time-code overlaps or precedes prior audio input."
        case 4: return "The audio input is in an unexpected format."
        case 5: return "No model is available for the locale and options."
        case 6: return "The module requires a locale that is not reserved."
        case 7: return "The custom language model templates were malformed."
        case 8: return "The custom language model file was malformed."
        case 9: return "The app has reserved too many locales."
        case 10: return "The modules have no audio format in common."
        case 11: return "A module's result task failed."
        case 12: return "The operation timed out."
        case 13: return "A required parameter is missing."
        case 14: return "The requested locale is not supported."
        case 15: return "There are not enough resources on this device."
        default: return "Speech error \(code.rawValue)."
        }
    }
}
