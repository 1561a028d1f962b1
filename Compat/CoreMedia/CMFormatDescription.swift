// CMFormatDescription: the description of a sample buffer's media, here only
// audio (API.md §2.14).

/// A four-character media type code.
public typealias CMMediaType = UInt32
/// Audio media (`'soun'`).
public let kCMMediaType_Audio: CMMediaType = 0x736F_756E

/// Describes the media in sample buffers.
/// - Note: On Linux only audio descriptions exist; `CMAudioFormatDescription`
///   is the same type, as on Apple platforms.
public final class CMFormatDescription: @unchecked Sendable {
    private let streamDescription: UnsafeMutablePointer<AudioStreamBasicDescription>

    /// Creates an audio format description (SpeechCompat's stand-in for
    /// `CMAudioFormatDescriptionCreate`).
    public init(audioStreamBasicDescription: AudioStreamBasicDescription) {
        streamDescription = .allocate(capacity: 1)
        streamDescription.initialize(to: audioStreamBasicDescription)
    }

    deinit { streamDescription.deallocate() }

    /// The media type: always `kCMMediaType_Audio`.
    public var mediaType: CMMediaType { kCMMediaType_Audio }

    /// The audio format record.
    public var audioStreamBasicDescription: AudioStreamBasicDescription? { streamDescription.pointee }

    /// A stable pointer to the record, for the C-style accessor.
    var streamDescriptionPointer: UnsafePointer<AudioStreamBasicDescription> { UnsafePointer(streamDescription) }
}

/// An audio format description (the same type as `CMFormatDescription`).
public typealias CMAudioFormatDescription = CMFormatDescription

/// The audio format record of a description; valid while the description lives.
public func CMAudioFormatDescriptionGetStreamBasicDescription(
    _ desc: CMAudioFormatDescription) -> UnsafePointer<AudioStreamBasicDescription>? {
    desc.streamDescriptionPointer
}

/// The media type of a description.
public func CMFormatDescriptionGetMediaType(_ desc: CMFormatDescription) -> CMMediaType { desc.mediaType }

/// A track's persistent identifier within its asset (0 is invalid).
public typealias CMPersistentTrackID = Int32
/// The invalid track identifier.
public let kCMPersistentTrackID_Invalid: CMPersistentTrackID = 0
