// AVAudioChannelLayout: the channel layouts mono and stereo speech code needs.

/// A Core Audio channel-layout tag: the layout in the high 16 bits, the
/// channel count in the low 16 bits.
public typealias AudioChannelLayoutTag = UInt32

/// One channel.
public let kAudioChannelLayoutTag_Mono: AudioChannelLayoutTag = (100 << 16) | 1
/// Two channels, left then right.
public let kAudioChannelLayoutTag_Stereo: AudioChannelLayoutTag = (101 << 16) | 2
/// Channels with no particular roles; OR the channel count into the low bits.
public let kAudioChannelLayoutTag_DiscreteInOrder: AudioChannelLayoutTag = 147 << 16

/// Describes the roles of the channels in a multichannel format.
/// - Note: On Linux only layout tags are supported (no channel descriptions);
///   that covers mono, stereo and discrete layouts.
open class AVAudioChannelLayout: NSObject, @unchecked Sendable {
    /// The layout tag.
    public let layoutTag: AudioChannelLayoutTag

    /// Creates a layout from a tag; `nil` when the tag names no channels.
    public init?(layoutTag: AudioChannelLayoutTag) {
        guard layoutTag & 0xFFFF > 0 else { return nil }
        self.layoutTag = layoutTag
        super.init()
    }

    /// The number of channels the layout describes.
    open var channelCount: AVAudioChannelCount { layoutTag & 0xFFFF }

    /// Whether the other object is a layout with the same tag.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? AVAudioChannelLayout else { return false }
        return other.layoutTag == layoutTag
    }

    /// A hash consistent with `isEqual(_:)`.
    open override var hash: Int { Int(layoutTag) }

    /// The layout for `channelCount` channels: mono, stereo or discrete.
    static func defaultLayout(channelCount: AVAudioChannelCount) -> AVAudioChannelLayout? {
        switch channelCount {
        case 1: return AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Mono)
        case 2: return AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo)
        default: return AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_DiscreteInOrder | channelCount)
        }
    }
}
