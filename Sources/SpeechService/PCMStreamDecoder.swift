import Foundation
import SpeechEngine

/// Raw audio bytes as a live client sends them, in pieces cut anywhere, to
/// 16 kHz mono samples for the streaming recognizer.
///
/// `s16le` and `f32le` are interleaved PCM at the stream's rate and channel
/// count; `wav` is a WAV stream whose header (read here: RIFF chunks up to
/// `data`) gives the sample format, rate and channels. A frame cut between
/// two pieces is kept until the rest arrives. Other rates go through the
/// engine's streaming `Resampler` (libsoxr).
struct PCMStreamDecoder {
    /// How the bytes encode samples.
    enum Encoding: String, Sendable, CaseIterable {
        case s16le, f32le, wav
    }

    let encoding: Encoding
    private(set) var sampleRate: Int
    private(set) var channelCount: Int
    /// Set once the WAV header is read (always for raw PCM).
    private var sampleFormat: SampleFormat?
    private var carry: [UInt8] = []
    private var header: [UInt8] = []
    private var resampler: Resampler?
    /// Bytes of audio data decoded so far (after any header).
    private(set) var dataByteCount = 0

    private enum SampleFormat { case int16, float32 }

    /// A WAV header longer than this without a `data` chunk is refused.
    static let headerByteLimit = 64 * 1024

    /// - Throws: `ServiceError(.invalidRequest)` for a rate or channel count out of range.
    init(encoding: Encoding, sampleRate: Int, channelCount: Int) throws(ServiceError) {
        self.encoding = encoding
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        switch encoding {
        case .s16le: sampleFormat = .int16
        case .f32le: sampleFormat = .float32
        case .wav: sampleFormat = nil
        }
        try configure()
    }

    private mutating func configure() throws(ServiceError) {
        guard (8_000...192_000).contains(sampleRate) else {
            throw ServiceError(.invalidRequest, code: "invalid_sample_rate",
                               "sample_rate must be 8000 to 192000 Hz, not \(sampleRate).", parameter: "sample_rate")
        }
        guard (1...8).contains(channelCount) else {
            throw ServiceError(.invalidRequest, code: "invalid_channels",
                               "channels must be 1 to 8, not \(channelCount).", parameter: "channels")
        }
        if sampleRate != Int(Transcriber.sampleRate) {
            do {
                resampler = try Resampler(inputRate: Double(sampleRate))
            } catch {
                throw ServiceError(.server, code: "resampler_failed", "Cannot resample from \(sampleRate) Hz: \(error)")
            }
        }
    }

    /// Bytes per interleaved frame, once the format is known.
    var frameByteCount: Int? {
        sampleFormat.map { ($0 == .int16 ? 2 : 4) * channelCount }
    }

    /// Seconds of audio decoded so far, at the stream's own rate.
    var decodedSeconds: Double {
        guard let frameByteCount else { return 0 }
        return Double(dataByteCount / frameByteCount) / Double(sampleRate)
    }

    /// Decodes the next piece; returns 16 kHz mono samples (possibly none yet).
    /// - Throws: `ServiceError(.invalidRequest, code: "invalid_audio")` for a WAV header it cannot use.
    mutating func decode(_ bytes: UnsafeRawBufferPointer) throws(ServiceError) -> [Float] {
        var input = Array(bytes.bindMemory(to: UInt8.self))
        if sampleFormat == nil {
            header += input
            guard let dataStart = try WAVStreamHeader.parse(header) else {
                if header.count > Self.headerByteLimit {
                    throw ServiceError(.invalidRequest, code: "invalid_audio",
                                       "No WAV 'data' chunk in the first \(Self.headerByteLimit / 1024) KB; "
                                       + "send a WAV stream, or raw PCM with encoding=s16le or f32le.")
                }
                return []
            }
            sampleFormat = dataStart.format.isFloat ? .float32 : .int16
            sampleRate = dataStart.format.sampleRate
            channelCount = dataStart.format.channelCount
            try configure()
            input = Array(header[dataStart.offset...])
            header = []
        }
        return convert(input)
    }

    /// The samples the resampler still holds, at the end of the stream.
    mutating func finish() -> [Float] {
        resampler?.finish() ?? []
    }

    private mutating func convert(_ input: [UInt8]) -> [Float] {
        guard let format = sampleFormat, let frameByteCount else { return [] }
        let bytes = carry + input
        let usable = bytes.count / frameByteCount * frameByteCount
        carry = Array(bytes[usable...])
        dataByteCount += usable
        guard usable > 0 else { return [] }
        var interleaved = [Float](repeating: 0, count: usable / (format == .int16 ? 2 : 4))
        bytes.withUnsafeBytes { raw in
            for index in interleaved.indices {
                switch format {
                case .int16:
                    let value = Int16(littleEndian: raw.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))
                    interleaved[index] = Float(value) / 32_768
                case .float32:
                    let bits = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self))
                    interleaved[index] = Float(bitPattern: bits)
                }
            }
        }
        let mono = channelCount == 1 ? interleaved : Downmix.mono(interleaved: interleaved, channelCount: channelCount)
        return resampler?.process(mono) ?? mono
    }
}
