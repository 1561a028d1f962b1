// Decoding one audio track for AVAssetReaderTrackOutput: read the file with
// AVAudioFile (libsndfile), convert with AVAudioConverter (libsoxr for rate
// changes), and wrap each chunk in a CMSampleBuffer.

/// One forward pass over a track's samples in the PCM format an output asks for.
final class AudioTrackDecoder {
    /// Output frames per sample buffer.
    static let chunkFrames: AVAudioFrameCount = 8_192

    private let file: AVAudioFile
    private let converter: AVAudioConverter
    private let input: AVAudioPCMBuffer
    private let output: AVAudioPCMBuffer
    /// Whether samples are packed to 24-bit integers after conversion to Int32.
    private let packs24Bit: Bool
    private let timescale: CMTimeScale
    private let firstOutputFrame: Int64
    private var deliveredFrames: Int64 = 0
    private var remainingInputFrames: Int64
    private var inputEnded = false

    /// Opens the track's file at the start of `timeRange` for the format
    /// `settings` ask for.
    /// - Throws: `AVErrorUnknown` in `AVFoundationErrorDomain` for settings
    ///   that cannot be produced; the asset error if the file cannot be reopened.
    init(media: AVAssetMedia, settings: [String: Any]?, timeRange: CMTimeRange) throws {
        do {
            file = try AVAudioFile(forReading: media.url)
        } catch {
            throw AVAssetMedia.assetError(media.url, underlying: error as NSError)
        }
        let target = try AudioTrackDecoder.targetFormat(settings: settings, fileFormat: media.fileFormat)
        guard let converter = AVAudioConverter(from: file.processingFormat, to: target.format),
              let input = AVAudioPCMBuffer(pcmFormat: file.processingFormat, frameCapacity: AudioTrackDecoder.chunkFrames),
              let output = AVAudioPCMBuffer(pcmFormat: target.format, frameCapacity: AudioTrackDecoder.chunkFrames) else {
            throw AudioTrackDecoder.settingsError("cannot convert \(file.processingFormat) to \(target.format)")
        }
        converter.downmix = target.format.channelCount < file.processingFormat.channelCount
        self.converter = converter
        self.input = input
        self.output = output
        packs24Bit = target.packs24Bit
        timescale = CMTimeScale(max(1, target.format.sampleRate.rounded()))
        let fileRate = media.fileFormat.sampleRate
        let (startFrame, endFrame) = AudioTrackDecoder.frames(of: timeRange, rate: fileRate, length: media.frameCount)
        file.framePosition = startFrame
        remainingInputFrames = max(0, endFrame - startFrame)
        firstOutputFrame = Int64((Double(startFrame) * target.format.sampleRate / fileRate).rounded())
    }

    /// The next sample buffer, or `nil` once everything was delivered.
    func nextSampleBuffer() throws -> CMSampleBuffer? {
        var conversionError: NSError?
        var readError: Error?
        let status = converter.convert(to: output, error: &conversionError) { _, inputStatus in
            guard !inputEnded, remainingInputFrames > 0 else {
                inputEnded = true
                inputStatus.pointee = .endOfStream
                return nil
            }
            do {
                try file.read(into: input, frameCount: AVAudioFrameCount(min(Int64(input.frameCapacity), remainingInputFrames)))
            } catch {
                readError = error
                input.frameLength = 0
            }
            guard input.frameLength > 0 else {
                inputEnded = true
                inputStatus.pointee = .endOfStream
                return nil
            }
            remainingInputFrames -= Int64(input.frameLength)
            inputStatus.pointee = .haveData
            return input
        }
        if let readError { throw readError }
        if status == .error {
            throw conversionError ?? AudioTrackDecoder.settingsError("the conversion failed")
        }
        guard output.frameLength > 0 else { return nil }
        let start = CMTime(value: firstOutputFrame + deliveredFrames, timescale: timescale)
        deliveredFrames += Int64(output.frameLength)
        return packs24Bit ? AudioTrackDecoder.packed24BitSampleBuffer(output, start: start)
            : CMSampleBuffer(pcmBuffer: output, presentationTimeStamp: start)
    }

    /// The file frames `[start, end)` a time range covers.
    static func frames(of range: CMTimeRange, rate: Double,
                       length: AVAudioFramePosition) -> (AVAudioFramePosition, AVAudioFramePosition) {
        let start = range.start.isNumeric ? min(length, max(0, Int64((range.start.seconds * rate).rounded()))) : 0
        guard range.duration.isNumeric else { return (start, length) }
        let end = Int64((range.end.seconds * rate).rounded())
        return (start, min(length, max(start, end)))
    }
}
