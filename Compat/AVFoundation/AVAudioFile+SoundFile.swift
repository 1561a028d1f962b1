// The mapping between libsndfile's format codes and AVAudioFormat, for
// reading (SF_INFO → fileFormat) and writing (settings + extension → SF_INFO).

import CSndFile

extension AVAudioFile {
    /// The on-disk format of an open libsndfile stream.
    static func fileFormat(of info: SF_INFO) -> AVAudioFormat {
        let major = Int(info.format) & Int(SF_FORMAT_TYPEMASK)
        let subtype = Int(info.format) & Int(SF_FORMAT_SUBMASK)
        let rate = Double(info.samplerate)
        let channels = AVAudioChannelCount(max(info.channels, 0))
        func encoded(_ id: AudioFormatID) -> AVAudioFormat {
            AVAudioFormat(formatID: id, sampleRate: rate, channelCount: channels, bitDepth: 0,
                          isFloat: false, interleaved: true)
        }
        if major == Int(SF_FORMAT_FLAC) { return encoded(kAudioFormatFLAC) }
        switch subtype {
        case Int(SF_FORMAT_VORBIS): return encoded(speechCompatAudioFormatVorbis)
        case Int(SF_FORMAT_OPUS): return encoded(kAudioFormatOpus)
        case Int(SF_FORMAT_MPEG_LAYER_III): return encoded(kAudioFormatMPEGLayer3)
        case Int(SF_FORMAT_ALAC_16), Int(SF_FORMAT_ALAC_20), Int(SF_FORMAT_ALAC_24), Int(SF_FORMAT_ALAC_32):
            return encoded(kAudioFormatAppleLossless)
        default: break
        }
        let (bitDepth, isFloat): (Int, Bool)
        switch subtype {
        case Int(SF_FORMAT_PCM_S8), Int(SF_FORMAT_PCM_U8): (bitDepth, isFloat) = (8, false)
        case Int(SF_FORMAT_PCM_24): (bitDepth, isFloat) = (24, false)
        case Int(SF_FORMAT_PCM_32): (bitDepth, isFloat) = (32, false)
        case Int(SF_FORMAT_FLOAT): (bitDepth, isFloat) = (32, true)
        case Int(SF_FORMAT_DOUBLE): (bitDepth, isFloat) = (64, true)
        default: (bitDepth, isFloat) = (16, false)
        }
        return AVAudioFormat(formatID: kAudioFormatLinearPCM, sampleRate: rate, channelCount: channels,
                             bitDepth: bitDepth, isFloat: isFloat, interleaved: true)
    }

    /// The libsndfile major format for a file name's extension.
    static func majorFormat(forExtension pathExtension: String, formatID: AudioFormatID) -> Int32? {
        switch pathExtension.lowercased() {
        case "wav", "wave": return Int32(SF_FORMAT_WAV)
        case "aif", "aiff", "aifc": return Int32(SF_FORMAT_AIFF)
        case "caf": return Int32(SF_FORMAT_CAF)
        case "flac": return Int32(SF_FORMAT_FLAC)
        case "ogg", "oga", "opus": return Int32(SF_FORMAT_OGG)
        case "mp3": return Int32(SF_FORMAT_MPEG)
        case "w64": return Int32(SF_FORMAT_W64)
        default: return nil
        }
    }

    /// The libsndfile format code for writing `format` into a file named like `url`.
    static func soundFileFormat(for format: AVAudioFormat, url: URL) throws -> Int32 {
        let pathExtension = url.pathExtension
        guard let major = majorFormat(forExtension: pathExtension, formatID: format.formatID) else {
            throw AudioError.make(kAudioFileUnsupportedFileTypeError,
                                  "Cannot write audio files with the extension '.\(pathExtension)'. "
                                  + "Use .wav, .aiff, .caf, .flac, .ogg, .opus or .mp3.", url: url)
        }
        let subtype: Int
        switch (major, format.formatID) {
        case (Int32(SF_FORMAT_OGG), kAudioFormatOpus): subtype = Int(SF_FORMAT_OPUS)
        case (Int32(SF_FORMAT_OGG), _):
            subtype = pathExtension.lowercased() == "opus" ? Int(SF_FORMAT_OPUS) : Int(SF_FORMAT_VORBIS)
        case (Int32(SF_FORMAT_MPEG), _): subtype = Int(SF_FORMAT_MPEG_LAYER_III)
        case (Int32(SF_FORMAT_FLAC), _): subtype = format.bitDepth == 24 ? Int(SF_FORMAT_PCM_24) : Int(SF_FORMAT_PCM_16)
        case (_, kAudioFormatLinearPCM):
            switch (format.bitDepth, format.isFloat) {
            case (8, _): subtype = major == Int32(SF_FORMAT_WAV) ? Int(SF_FORMAT_PCM_U8) : Int(SF_FORMAT_PCM_S8)
            case (16, _): subtype = Int(SF_FORMAT_PCM_16)
            case (24, _): subtype = Int(SF_FORMAT_PCM_24)
            case (32, false): subtype = Int(SF_FORMAT_PCM_32)
            case (32, true): subtype = Int(SF_FORMAT_FLOAT)
            default: subtype = Int(SF_FORMAT_DOUBLE)
            }
        default:
            throw AudioError.make(kAudioFileUnsupportedDataFormatError,
                                  "Cannot write '\(fourCharacterCode(format.formatID))' data into a "
                                  + ".\(pathExtension) file. Use linear PCM settings or a matching extension.",
                                  url: url)
        }
        return major | Int32(subtype)
    }
}
