// What an asset learns by opening its file once: the audio stream's format
// and length. Shared by AVAsset, AVAssetTrack and the reader outputs.

/// The audio stream of a media file, as libsndfile reports it.
struct AVAssetMedia: @unchecked Sendable {
    // @unchecked: AVAudioFormat is an immutable class.

    /// The file.
    let url: URL
    /// The on-disk format (e.g. FLAC, 16-bit PCM).
    let fileFormat: AVAudioFormat
    /// Sample frames in the file.
    let frameCount: AVAudioFramePosition
    /// The file's size in bytes.
    let byteCount: Int64

    /// Opens `url` to learn its format and length.
    /// - Throws: An `AVFoundationErrorDomain` error (or `NSCocoaErrorDomain`
    ///   260 for a missing file) wrapping the file's Core Audio error.
    static func probe(_ url: URL) throws -> AVAssetMedia {
        let file: AVAudioFile
        do {
            file = try AVAudioFile(forReading: url)
        } catch {
            throw AVAssetMedia.assetError(url, underlying: error as NSError)
        }
        defer { file.close() }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        return AVAssetMedia(url: url, fileFormat: file.fileFormat, frameCount: file.length, byteCount: size)
    }

    /// The samples' timescale: the sample rate, rounded.
    var timescale: CMTimeScale { CMTimeScale(max(1, fileFormat.sampleRate.rounded())) }

    /// The length as a time in the file's sample rate.
    var duration: CMTime { CMTime(value: frameCount, timescale: timescale) }

    /// The error an asset reports for a file it cannot open: the domain and
    /// code Apple's AVFoundation uses, the file error as the underlying cause.
    static func assetError(_ url: URL, underlying: NSError) -> NSError {
        let reason = underlying.localizedDescription
        let (domain, code): (String, Int)
        switch OSStatus(truncatingIfNeeded: underlying.code) {
        case kAudioFileFileNotFoundError: (domain, code) = (NSCocoaErrorDomain, CocoaError.fileReadNoSuchFile.rawValue)
        case kAudioFilePermissionsError: (domain, code) = (NSCocoaErrorDomain, CocoaError.fileReadNoPermission.rawValue)
        case kAudioFileUnsupportedFileTypeError: (domain, code) = (AVFoundationErrorDomain, AVErrorFileFormatNotRecognized)
        case kAudioFileInvalidFileError: (domain, code) = (AVFoundationErrorDomain, AVErrorFailedToParse)
        default: (domain, code) = (AVFoundationErrorDomain, AVErrorUnknown)
        }
        return NSError(domain: domain, code: code, userInfo: [
            NSLocalizedDescriptionKey: "Cannot open the media at \(url.path): \(reason)",
            NSUnderlyingErrorKey: underlying,
            NSURLErrorKey: url,
        ])
    }
}

/// The error domain of AVFoundation's media errors.
public let AVFoundationErrorDomain = "AVFoundationErrorDomain"
/// An unknown media error.
public let AVErrorUnknown = -11800
/// The media's file format is not recognized (on Linux: not one libsndfile reads).
public let AVErrorFileFormatNotRecognized = -11828
/// The media file is damaged and cannot be parsed.
public let AVErrorFailedToParse = -11829
/// The operation is not allowed in the object's current state.
public let AVErrorOperationNotAllowed = -11862
