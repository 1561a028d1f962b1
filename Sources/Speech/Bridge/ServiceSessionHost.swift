import Foundation
internal import SpeechEngine

/// The service's side of one face session over `ServiceWire`: an
/// `EngineBackend` on the service's shared models, driven by the frames a
/// client sends, its updates written back.
///
/// Whatever the client does (crash, close early, send garbage), only this
/// session ends: a broken or closed connection cancels its backend, and the
/// session's thread returns. `speech serve` runs one per accepted connection.
package final class ServiceSessionHost: @unchecked Sendable {
    // `backend` is set once on the session's thread before updates flow;
    // `cancel()` may come from the shutdown thread, so it is guarded by `lock`.
    private let socket: ServiceSocket
    private let lock = NSLock()
    private var backend: (any RecognitionBackend)?
    private var cancelRequested = false

    /// A session over an accepted connection.
    package init(descriptor: Int32) {
        socket = ServiceSocket(descriptor: descriptor)
    }

    /// Tells a client the service takes no more sessions now, and closes.
    package static func refuse(descriptor: Int32, message: String) {
        let socket = ServiceSocket(descriptor: descriptor)
        socket.send(.rejected, ServiceWire.encodeJSON(ServiceWire.WireError(code: "busy", message: message)))
        socket.close()
    }

    /// Serves the session to its end; blocks the calling thread.
    package func run() {
        defer { socket.close() }
        guard let opening = socket.receive(), opening.kind == .open,
              let request = try? JSONDecoder().decode(ServiceWire.OpenRequest.self, from: opening.payload) else {
            socket.send(.rejected, ServiceWire.encodeJSON(ServiceWire.WireError(
                code: "service", message: "The first frame of a session must be an open request.")))
            return
        }
        let backend: any RecognitionBackend
        do {
            backend = try EngineBackend(locale: Locale(identifier: request.locale), configuration: request.configuration)
        } catch {
            socket.send(.rejected, ServiceWire.encodeJSON(ServiceWire.WireError(error)))
            return
        }
        lock.lock()
        self.backend = backend
        let cancelledEarly = cancelRequested
        lock.unlock()
        guard socket.send(.ready) else { return backend.cancel() }
        if cancelledEarly { backend.cancel() }

        let pumped = DispatchSemaphore(value: 0)
        let socket = self.socket
        Task.detached {
            var clientGone = false
            for await update in backend.updates {
                if !clientGone && !socket.send(.update, ServiceWire.encodeJSON(ServiceWire.WireUpdate(update))) {
                    clientGone = true
                    backend.cancel()
                }
                if case .finished = update { break }
                if case .failed = update { break }
            }
            // The session is over: wake the frame loop below.
            socket.shutdown()
            pumped.signal()
        }
        readVerbs(into: backend)
        // The client went away or the session ended: cancel is a no-op after the terminal update.
        backend.cancel()
        pumped.wait()
    }

    /// Applies the client's verbs until the connection ends or breaks the protocol.
    private func readVerbs(into backend: any RecognitionBackend) {
        var recording: [Float] = []
        while let frame = socket.receive() {
            switch frame.kind {
            case .append:
                backend.append(ServiceWire.samples(from: frame.payload))
            case .gap:
                guard let seconds = ServiceWire.seconds(from: frame.payload) else { return }
                backend.appendGap(seconds: seconds)
            case .recordingChunk:
                recording += ServiceWire.samples(from: frame.payload)
            case .recordingEnd:
                backend.appendRecording(recording)
                recording = []
            case .commit:
                guard let seconds = ServiceWire.seconds(from: frame.payload) else { return }
                backend.commit(throughSeconds: seconds)
            case .finish:
                backend.finish()
            case .cancel:
                backend.cancel()
            case .open, .ready, .rejected, .update:
                return  // not a verb: the client breaks the protocol
            }
        }
    }

    /// Cancels the session (service shutdown); its stream ends with a cancellation.
    package func cancel() {
        lock.lock()
        cancelRequested = true
        let backend = self.backend
        lock.unlock()
        backend?.cancel()
    }
}
