// Core Audio-shaped errors for files, conversion and capture: NSErrors in
// NSOSStatusErrorDomain with Core Audio's codes and a message that says what
// to do (API.md §2.5, §2.6).

/// The file does not exist (`fnfErr`).
public let kAudioFileFileNotFoundError: OSStatus = -43
/// The file cannot be opened for lack of permission (`'prm?'`).
public let kAudioFilePermissionsError: OSStatus = 0x7072_6D3F
/// The file type is not supported (`'typ?'`).
public let kAudioFileUnsupportedFileTypeError: OSStatus = 0x7479_703F
/// The data format is not supported by the file type (`'fmt?'`).
public let kAudioFileUnsupportedDataFormatError: OSStatus = 0x666D_743F
/// The file is malformed (`'dta?'`).
public let kAudioFileInvalidFileError: OSStatus = 0x6474_613F
/// An unspecified file error (`'wht?'`).
public let kAudioFileUnspecifiedError: OSStatus = 0x7768_743F
/// The file is not open (`-38`, `fnOpnErr`).
public let kAudioFileNotOpenError: OSStatus = -38
/// A bad parameter (`-50`, `paramErr`).
public let kAudio_ParamError: OSStatus = -50
/// The converter cannot convert between the formats (`'fmt?'`).
public let kAudioConverterErr_FormatNotSupported: OSStatus = 0x666D_743F
/// The audio device is not available (`'!dev'`).
public let kAudioHardwareBadDeviceError: OSStatus = 0x2164_6576
/// The audio hardware is not running or failed (`'stop'`).
public let kAudioHardwareNotRunningError: OSStatus = 0x7374_6F70

/// Builds the NSErrors this module throws.
enum AudioError {
    /// An `NSOSStatusErrorDomain` error with a description and optional file path.
    static func make(_ code: OSStatus, _ message: String, url: URL? = nil,
                     underlying: String? = nil) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url { info[NSFilePathErrorKey] = url.path }
        if let underlying { info[NSLocalizedFailureReasonErrorKey] = underlying }
        return NSError(domain: NSOSStatusErrorDomain, code: Int(code), userInfo: info)
    }

    /// The error for a file that cannot be opened for reading.
    static func openForReading(_ url: URL, libraryMessage: String, libraryCode: Int32) -> NSError {
        let path = url.path
        if !FileManager.default.fileExists(atPath: path) {
            return make(kAudioFileFileNotFoundError,
                        "The audio file \(path) does not exist. Check the path.", url: url)
        }
        if !FileManager.default.isReadableFile(atPath: path) {
            return make(kAudioFilePermissionsError,
                        "The audio file \(path) is not readable. Check its permissions.", url: url)
        }
        switch libraryCode {
        case 1, 4: // SF_ERR_UNRECOGNISED_FORMAT, SF_ERR_UNSUPPORTED_ENCODING
            return make(kAudioFileUnsupportedFileTypeError,
                        "The audio file \(path) is not in a supported format "
                        + "(WAV, AIFF, CAF, FLAC, Ogg Vorbis/Opus, MP3). Convert it first, e.g. with sox or ffmpeg.",
                        url: url, underlying: libraryMessage)
        case 3: // SF_ERR_MALFORMED_FILE
            return make(kAudioFileInvalidFileError,
                        "The audio file \(path) is damaged or truncated.", url: url, underlying: libraryMessage)
        default:
            return make(kAudioFileUnspecifiedError,
                        "The audio file \(path) could not be opened.", url: url, underlying: libraryMessage)
        }
    }
}
