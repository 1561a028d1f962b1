import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One end of a unix stream socket carrying `ServiceWire` frames.
///
/// Writes use `MSG_NOSIGNAL`, so a peer that went away is an error return
/// here, never a SIGPIPE that would kill the process (the face's app or the
/// service). Closing is idempotent and guarded, so a descriptor is never
/// closed twice or used after another file took its number.
package final class ServiceSocket: @unchecked Sendable {
    // `descriptor` is guarded by `lock`; reads happen on one thread and
    // writes are serialised by `writeLock`.
    private let lock = NSLock()
    private let writeLock = NSLock()
    private var descriptor: Int32
    /// Set when a receive gave up at the receive timeout (the peer is there
    /// but said nothing), as opposed to the peer closing the connection.
    private var receiveTimedOut = false

    /// Wraps a connected descriptor (the service's accepted connections).
    package init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close()
    }

    /// The unix socket address of `path`; nil when the path is longer than
    /// an address holds (107 bytes and the terminating zero).
    package static func address(of path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    /// Connects to the service listening at `path`.
    /// - Throws: `ServiceBackendError(.unreachable)` when nothing listens there.
    static func connect(path: String) throws -> ServiceSocket {
        guard var address = address(of: path) else {
            throw ServiceBackendError(.invalidEndpoint, "The socket path '\(path)' is too long (108 bytes at most).")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw ServiceBackendError(.unreachable, "Cannot create a socket: \(String(cString: strerror(errno))).")
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw ServiceBackendError(.unreachable, "No recognition service answers at unix:\(path) (\(reason)). "
                                      + "Start one with `speech serve --socket \(path)`, or unset SPEECHCOMPAT_SERVICE "
                                      + "to recognise in this process.")
        }
        return ServiceSocket(descriptor: fd)
    }

    /// Sends one frame; false when the peer is gone.
    @discardableResult
    package func send(_ kind: ServiceWire.Kind, _ payload: Data = Data()) -> Bool {
        var frame = Data(capacity: payload.count + 5)
        withUnsafeBytes(of: UInt32(payload.count + 1).bigEndian) { frame.append(contentsOf: $0) }
        frame.append(kind.rawValue)
        frame.append(payload)
        writeLock.lock()
        defer { writeLock.unlock() }
        guard let fd = currentDescriptor else { return false }
        return frame.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Reads one frame; nil at the end of the stream, on an error, or on a
    /// frame that breaks the protocol (too long, empty, unknown kind).
    package func receive() -> (kind: ServiceWire.Kind, payload: Data)? {
        guard let header = read(count: 4) else { return nil }
        let length = header.withUnsafeBytes { Int(UInt32(bigEndian: $0.loadUnaligned(as: UInt32.self))) }
        guard length >= 1, length <= ServiceWire.maximumFrameBytes, let body = read(count: length),
              let kind = ServiceWire.Kind(rawValue: body[body.startIndex]) else { return nil }
        return (kind, body.dropFirst())
    }

    /// Whether the last receive that returned nil gave up at the timeout.
    var lastReceiveTimedOut: Bool { lock.withLock { receiveTimedOut } }

    /// Gives up waiting for a reply after `seconds` (the open handshake).
    func setReceiveTimeout(seconds: Int) {
        guard let fd = currentDescriptor else { return }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Wakes a blocked `receive` on another thread (it returns nil), without
    /// giving the descriptor's number away yet.
    package func shutdown() {
        lock.lock()
        defer { lock.unlock() }
        if descriptor >= 0 { Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Closes the descriptor (once).
    package func close() {
        lock.lock()
        defer { lock.unlock() }
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    private var currentDescriptor: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return descriptor >= 0 ? descriptor : nil
    }

    private func read(count: Int) -> Data? {
        guard let fd = currentDescriptor else { return nil }
        var data = Data(count: count)
        let complete = data.withUnsafeMutableBytes { bytes -> Bool in
            var offset = 0
            while offset < count {
                let got = recv(fd, bytes.baseAddress! + offset, count - offset, 0)
                if got < 0 && errno == EINTR { continue }
                if got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { lock.withLock { receiveTimedOut = true } }
                guard got > 0 else { return false }
                offset += got
            }
            return true
        }
        return complete ? data : nil
    }
}
