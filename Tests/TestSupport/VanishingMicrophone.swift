import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A capture device that goes away mid-stream, through real ALSA (no mock):
/// an ALSA `file` plugin PCM that plays raw S16 mono 16 kHz samples and, as
/// the plugin does, writes what it captured to its output `file` — here a
/// FIFO this object drains. `vanish` closes the FIFO's reader: the plugin's
/// next write fails and `snd_pcm_readi` returns -EIO, which is what a capture
/// stream whose device was unplugged returns.
///
/// The process must ignore SIGPIPE (the failed write raises it); `init` does.
public final class VanishingMicrophone: @unchecked Sendable {
    // @unchecked: the reader state is behind `lock`; the drain thread owns the fd.
    /// The folder holding the samples, the FIFO and the configuration.
    public let directory: URL
    /// The ALSA configuration file defining `deviceName`.
    public let configurationURL: URL
    /// The capture PCM to open.
    public let deviceName = "vanishingmicplug"
    /// Seconds of audio in the infile.
    public let durationSeconds: Double

    private let fifoURL: URL
    private let lock = NSLock()
    private var readerFD: Int32 = -1
    private var drainedBytes = 0
    private var vanishAfterBytes = Int.max
    private let vanishedSignal = DispatchSemaphore(value: 0)

    /// A microphone playing `samples` (16 kHz mono) that vanishes after
    /// `vanishAfterSeconds` of captured audio.
    public init(samples: [Int16], vanishAfterSeconds: Double) throws {
        signal(SIGPIPE, SIG_IGN)
        directory = try Fixtures.temporaryDirectory("vanishing-mic")
        let raw = directory.appendingPathComponent("speech16k.s16")
        try samples.withUnsafeBytes { Data($0) }.write(to: raw)
        durationSeconds = Double(samples.count) / 16_000
        fifoURL = directory.appendingPathComponent("captured.fifo")
        guard mkfifo(fifoURL.path, 0o600) == 0 else {
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno),
                          userInfo: [NSLocalizedDescriptionKey: "mkfifo \(fifoURL.path) failed"])
        }
        // Open the reader first (non-blocking: no writer yet), so that the
        // plugin's open for writing does not wait.
        readerFD = open(fifoURL.path, O_RDONLY | O_NONBLOCK)
        guard readerFD >= 0 else {
            throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno),
                          userInfo: [NSLocalizedDescriptionKey: "open \(fifoURL.path) failed"])
        }
        vanishAfterBytes = Int(vanishAfterSeconds * 16_000) * 2
        configurationURL = directory.appendingPathComponent("vanishing.conf")
        try """
        pcm.vanishingmic { type file slave.pcm "null" file "\(fifoURL.path)" infile "\(raw.path)" format "raw" }
        pcm.vanishingmicplug { type plug slave { pcm "vanishingmic" format S16_LE rate 16000 channels 1 } }
        """.write(to: configurationURL, atomically: true, encoding: .utf8)
        let thread = Thread { [self] in drain() }
        thread.name = "VanishingMicrophone.drain"
        thread.start()
    }

    /// Whether the device vanished, waiting up to `timeout` seconds.
    public func waitUntilVanished(timeout: Double) -> Bool {
        vanishedSignal.wait(timeout: .now() + timeout) == .success
    }

    /// Seconds of captured audio the plugin had written when it vanished.
    public var secondsBeforeVanishing: Double {
        lock.withLock { Double(drainedBytes) / 32_000 }
    }

    /// Removes the folder (closing the reader if it is still open).
    public func remove() {
        vanishNow()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Reads and discards what the plugin writes until the vanishing point.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let (fd, limit): (Int32, Int) = lock.withLock { (readerFD, vanishAfterBytes - drainedBytes) }
            guard fd >= 0 else { return }
            guard limit > 0 else { break }
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, limit)) }
            if got > 0 {
                lock.withLock { drainedBytes += got }
            } else {
                usleep(2_000)
            }
        }
        vanishNow()
    }

    private func vanishNow() {
        let fd: Int32 = lock.withLock {
            defer { readerFD = -1 }
            return readerFD
        }
        guard fd >= 0 else { return }
        close(fd)
        vanishedSignal.signal()
    }
}
