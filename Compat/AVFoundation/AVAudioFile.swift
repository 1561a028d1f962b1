// AVAudioFile: reading and writing audio files through libsndfile (API.md §2.5).

import CSndFile

/// An audio file opened for reading or writing, exchanging PCM buffers in its
/// `processingFormat`.
///
/// `fileFormat` is the format on disk; `processingFormat` is what buffers
/// passed to `read(into:)` and `write(from:)` must use. By default it is the
/// standard format (Float32, deinterleaved) at the file's rate and channel
/// count. Files are never resampled.
/// - Note: On Linux files are decoded and encoded by libsndfile: WAV, AIFF,
///   CAF, W64, FLAC, Ogg Vorbis, Ogg Opus and MP3 read; the same containers
///   write, chosen by the URL's extension. AAC/M4A is not available and throws
///   `kAudioFileUnsupportedFileTypeError` in `NSOSStatusErrorDomain`.
///
/// The file is `Sendable`, as in Apple's 26 SDK: the read/write position and
/// the libsndfile handle are guarded by a lock, so tasks may share a file;
/// each `read` or `write` call is atomic (two tasks reading one file still
/// take turns through one position).
open class AVAudioFile: NSObject, @unchecked Sendable {
    /// The file's location.
    public let url: URL
    /// The format of the audio on disk.
    public let fileFormat: AVAudioFormat
    /// The format of buffers read from or written to the file.
    public let processingFormat: AVAudioFormat
    /// Guards `handle`, `position` and `frameCount`: held for the whole of
    /// each read, write, seek and close.
    let lock = NSLock()
    /// The libsndfile handle; `nil` once closed.
    var handle: OpaquePointer?
    /// Whether the file was opened for writing.
    let isWriting: Bool
    /// Frames read or written so far (the next frame's position).
    var position: AVAudioFramePosition = 0
    /// Frames in the file (reading) or written (writing).
    var frameCount: AVAudioFramePosition

    /// Opens a file for reading with the standard processing format.
    /// - Throws: An `NSOSStatusErrorDomain` error: `kAudioFileFileNotFoundError`,
    ///   `kAudioFilePermissionsError`, `kAudioFileUnsupportedFileTypeError` or
    ///   `kAudioFileInvalidFileError`.
    public convenience init(forReading fileURL: URL) throws {
        try self.init(forReading: fileURL, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Opens a file for reading with a chosen processing format.
    public init(forReading fileURL: URL, commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        var info = SF_INFO()
        guard let opened = sf_open(fileURL.path, Int32(SFM_READ), &info) else {
            let message = String(cString: sf_strerror(nil))
            throw AudioError.openForReading(fileURL, libraryMessage: message, libraryCode: sf_error(nil))
        }
        let onDisk = AVAudioFile.fileFormat(of: info)
        guard let processing = AVAudioFormat(commonFormat: format, sampleRate: onDisk.sampleRate,
                                             channels: onDisk.channelCount, interleaved: interleaved) else {
            sf_close(opened)
            throw AudioError.make(kAudio_ParamError,
                                  "Cannot read \(fileURL.path) as \(format): choose a PCM common format.", url: fileURL)
        }
        url = fileURL
        fileFormat = onDisk
        processingFormat = processing
        handle = opened
        isWriting = false
        frameCount = info.frames
        super.init()
    }

    /// Creates a file for writing with the given settings and the standard
    /// processing format; the container comes from the URL's extension.
    public convenience init(forWriting fileURL: URL, settings: [String: Any]) throws {
        try self.init(forWriting: fileURL, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Creates a file for writing with the given settings and processing format.
    /// - Throws: `kAudioFileUnsupportedFileTypeError` for an unknown extension,
    ///   `kAudioFileUnsupportedDataFormatError` for settings the container
    ///   cannot hold, `kAudio_ParamError` for incomplete settings.
    public init(forWriting fileURL: URL, settings: [String: Any], commonFormat format: AVAudioCommonFormat,
                interleaved: Bool) throws {
        guard let requested = AVAudioFormat(settings: settings) else {
            throw AudioError.make(kAudio_ParamError,
                                  "The settings for \(fileURL.path) need AVSampleRateKey and AVNumberOfChannelsKey "
                                  + "(and a valid linear-PCM bit depth).", url: fileURL)
        }
        // Files store channels interleaved, whatever the settings say.
        let onDisk = AVAudioFormat(formatID: requested.formatID, sampleRate: requested.sampleRate,
                                   channelCount: requested.channelCount, bitDepth: requested.bitDepth,
                                   isFloat: requested.isFloat, interleaved: true)
        guard let processing = AVAudioFormat(commonFormat: format, sampleRate: onDisk.sampleRate,
                                             channels: onDisk.channelCount, interleaved: interleaved) else {
            throw AudioError.make(kAudio_ParamError, "Cannot write \(format) buffers: choose a PCM common format.",
                                  url: fileURL)
        }
        var info = SF_INFO()
        info.samplerate = Int32(onDisk.sampleRate.rounded())
        info.channels = Int32(onDisk.channelCount)
        info.format = try AVAudioFile.soundFileFormat(for: onDisk, url: fileURL)
        guard sf_format_check(&info) != 0 else {
            throw AudioError.make(kAudioFileUnsupportedDataFormatError,
                                  "A .\(fileURL.pathExtension) file cannot hold \(onDisk) "
                                  + "(e.g. Opus needs 8, 12, 16, 24 or 48 kHz).", url: fileURL)
        }
        guard let opened = sf_open(fileURL.path, Int32(SFM_WRITE), &info) else {
            throw AudioError.make(kAudioFilePermissionsError,
                                  "Cannot create \(fileURL.path): check that the folder exists and is writable.",
                                  url: fileURL, underlying: String(cString: sf_strerror(nil)))
        }
        url = fileURL
        fileFormat = onDisk
        processingFormat = processing
        handle = opened
        isWriting = true
        frameCount = 0
        super.init()
    }

    deinit {
        if let handle { sf_close(handle) }
    }

    /// The number of sample frames in the file (or written so far).
    open var length: AVAudioFramePosition { locked { frameCount } }

    /// The position of the next frame to read or write. Setting it seeks
    /// (reading only; the value is clamped to `0...length`).
    open var framePosition: AVAudioFramePosition {
        get { locked { position } }
        set {
            locked {
                guard !isWriting, let handle else { return }
                let target = min(max(newValue, 0), frameCount)
                if sf_seek(handle, target, SEEK_SET) >= 0 { position = target }
            }
        }
    }

    /// Whether the file is still open.
    open var isOpen: Bool { locked { handle != nil } }

    /// Closes the file, finishing its header when writing; later reads and
    /// writes throw.
    open func close() {
        locked {
            if let handle { sf_close(handle) }
            handle = nil
        }
    }

    /// Runs `body` holding the file's lock.
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The open handle, or the error for a closed file (caller holds `lock`).
    func openHandle() throws -> OpaquePointer {
        guard let handle else {
            throw AudioError.make(kAudioFileNotOpenError, "The audio file \(url.path) has been closed.", url: url)
        }
        return handle
    }
}
