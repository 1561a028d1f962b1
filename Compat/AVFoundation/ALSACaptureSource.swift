// Capture from an ALSA PCM: open (with the in-process configuration), negotiate
// an interleaved stream, read periods, and notice the end of a file plugin's
// infile or a vanished device.

import CALSA
#if canImport(Glibc)
import Glibc
#endif

/// Captures audio from the ALSA PCM named by `ALSAConfiguration`.
///
/// The stream is negotiated without ALSA resampling, preferring 48 kHz, then
/// 44.1 kHz, then the device's own rate; mono when the device allows it;
/// S16_LE, then S32_LE, then FLOAT_LE.
final class ALSACaptureSource: AudioCaptureSource {
    /// Which device to open.
    let configuration: ALSAConfiguration
    private(set) var parameters = ALSAStreamParameters(rate: 48_000, channels: 1, sampleFormat: .int16, periodFrames: 960)
    private var pcm: OpaquePointer?
    private var tree: OpaquePointer?
    private var remainingFrames: Int64?
    /// Frames read so far in this run, to say in an error how far capture got.
    private var framesRead: Int64 = 0

    /// Creates a source for a device; nothing is opened yet.
    init(configuration: ALSAConfiguration) { self.configuration = configuration }

    deinit { close() }

    func open() throws {
        close()
        let loaded = try configuration.loadTree()
        guard configuration.isDefined(in: loaded) else {
            snd_config_delete(loaded)
            throw configuration.undefinedDeviceError()
        }
        var handle: OpaquePointer?
        let status = snd_pcm_open_lconf(&handle, configuration.deviceName, SND_PCM_STREAM_CAPTURE, 0, loaded)
        guard status >= 0, let handle else {
            snd_config_delete(loaded)
            throw configuration.failure("opening it for capture", status)
        }
        pcm = handle
        tree = loaded
        do {
            try negotiate(handle)
        } catch {
            close()
            throw error
        }
        remainingFrames = configuration.infileFrameCount(in: loaded, capture: parameters)
        framesRead = 0
    }

    func read() -> CaptureRead {
        guard let pcm else {
            return .failure(AudioError.make(kAudioHardwareNotRunningError, "The ALSA capture device is not open."))
        }
        var frames = parameters.periodFrames
        if let remaining = remainingFrames {
            if remaining <= 0 { return .endOfInput }
            frames = min(frames, Int(remaining))
        }
        let channels = parameters.channels
        var floats = [Float](repeating: 0, count: frames * channels)
        var got = 0
        for attempt in 0..<2 {
            got = readFrames(pcm, frames, into: &floats)
            guard got < 0 else { break }
            if got == -Int(EAGAIN) { return .samples([]) }
            // Overruns and suspends are recoverable; anything else means the device is gone.
            if attempt == 0 && (got == -Int(EPIPE) || got == -Int(ESTRPIPE)) && snd_pcm_recover(pcm, Int32(got), 1) >= 0 {
                continue
            }
            let seconds = Double(framesRead) / Double(parameters.rate)
            let action = framesRead == 0 ? "capturing"
                : "capturing, after \(String(format: "%.2f", seconds)) s of audio (the device went away or failed mid-stream)"
            return .failure(configuration.failure(action, Int32(got)))
        }
        if got < frames { floats.removeLast((frames - got) * channels) }
        framesRead += Int64(got)
        if let remaining = remainingFrames { remainingFrames = remaining - Int64(got) }
        return .samples(floats)
    }

    func close() {
        if let pcm { snd_pcm_close(pcm) }
        if let tree { snd_config_delete(tree) }
        pcm = nil
        tree = nil
    }

    /// Reads up to `frames` frames as interleaved Floats; ALSA's status if negative.
    private func readFrames(_ pcm: OpaquePointer, _ frames: Int, into floats: inout [Float]) -> Int {
        let count = frames * parameters.channels
        switch parameters.sampleFormat {
        case .float32:
            return floats.withUnsafeMutableBytes { Int(snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(frames))) }
        case .int16:
            var raw = [Int16](repeating: 0, count: count)
            let got = raw.withUnsafeMutableBytes { Int(snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(frames))) }
            for index in 0..<max(0, got) * parameters.channels { floats[index] = Float(raw[index]) / 32_768 }
            return got
        case .int32:
            var raw = [Int32](repeating: 0, count: count)
            let got = raw.withUnsafeMutableBytes { Int(snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(frames))) }
            for index in 0..<max(0, got) * parameters.channels { floats[index] = Float(Double(raw[index]) / 2_147_483_648) }
            return got
        }
    }

    /// Chooses and applies the hardware parameters.
    private func negotiate(_ pcm: OpaquePointer) throws {
        var hardware: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hardware) >= 0, let hardware else {
            throw configuration.failure("allocating parameters", -ENOMEM)
        }
        defer { snd_pcm_hw_params_free(hardware) }
        func check(_ status: Int32, _ action: String) throws {
            if status < 0 { throw configuration.failure(action, status) }
        }
        try check(snd_pcm_hw_params_any(pcm, hardware), "reading its capabilities")
        try check(snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED), "choosing interleaved access")
        _ = snd_pcm_hw_params_set_rate_resample(pcm, hardware, 0)
        guard let format = [ALSAStreamParameters.SampleFormat.int16, .int32, .float32]
            .first(where: { snd_pcm_hw_params_test_format(pcm, hardware, $0.alsaFormat) == 0 }) else {
            throw configuration.failure("choosing a sample format (it offers none of S16_LE, S32_LE, FLOAT_LE)", -EINVAL)
        }
        try check(snd_pcm_hw_params_set_format(pcm, hardware, format.alsaFormat), "setting the sample format")
        var channels: UInt32 = 1
        if snd_pcm_hw_params_test_channels(pcm, hardware, 1) != 0 {
            _ = snd_pcm_hw_params_get_channels_min(hardware, &channels)
        }
        try check(snd_pcm_hw_params_set_channels(pcm, hardware, channels), "setting \(channels) channel(s)")
        var rate: UInt32 = 48_000
        if snd_pcm_hw_params_test_rate(pcm, hardware, 48_000, 0) == 0 {
            try check(snd_pcm_hw_params_set_rate(pcm, hardware, 48_000, 0), "setting 48 kHz")
        } else if snd_pcm_hw_params_test_rate(pcm, hardware, 44_100, 0) == 0 {
            rate = 44_100
            try check(snd_pcm_hw_params_set_rate(pcm, hardware, 44_100, 0), "setting 44.1 kHz")
        } else {
            var direction: Int32 = 0
            try check(snd_pcm_hw_params_set_rate_near(pcm, hardware, &rate, &direction), "setting its sample rate")
        }
        var period = snd_pcm_uframes_t(max(64, rate / 50))
        var direction: Int32 = 0
        _ = snd_pcm_hw_params_set_period_size_near(pcm, hardware, &period, &direction)
        var bufferFrames = period * 10
        _ = snd_pcm_hw_params_set_buffer_size_near(pcm, hardware, &bufferFrames)
        try check(snd_pcm_hw_params(pcm, hardware), "applying the stream parameters")
        _ = snd_pcm_hw_params_get_period_size(hardware, &period, &direction)
        try check(snd_pcm_prepare(pcm), "preparing the stream")
        parameters = ALSAStreamParameters(rate: Int(rate), channels: Int(channels), sampleFormat: format,
                                          periodFrames: max(1, Int(period)))
    }
}
