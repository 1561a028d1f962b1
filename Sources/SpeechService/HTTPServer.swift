import CMicroHTTPD
import Foundation

/// One HTTP request once its body is in: method, path, the form, and the
/// content type it came with.
struct HTTPRequest: Sendable {
    var method: String
    var path: String
    var contentType: String?
    var form: UploadedForm?
    /// Query-string arguments (`?encoding=s16le&sample_rate=16000`).
    var query: [String: String] = [:]
    /// Request headers by lower-cased name.
    var headers: [String: String] = [:]

    /// A parameter from the query string or, failing that, the form.
    func parameter(_ name: String) -> String? {
        query[name] ?? form?.value(name)
    }
}

/// A request body taken piece by piece as it arrives (live audio), instead
/// of being parsed as a form and answered once it is all in.
protocol BodyReceiver: AnyObject, Sendable {
    /// The next bytes of the body. Returns false to refuse the rest, which
    /// is then read and dropped; `finish` answers.
    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// The body is complete (or was refused): the answer.
    func finish() -> HTTPResponse
    /// The request ended without `finish` (the client went away mid-body).
    func abandon()
}

/// What the service does with a request whose headers are in.
enum BodyHandling: Sendable {
    /// Parse the body as a form, then call the server's `handler` (the default).
    case form
    /// Hand the body to this receiver as it arrives.
    case receive(any BodyReceiver)
    /// Answer now without reading the body (an unknown stream, a busy one).
    case refuse(ServiceError)
}

/// libmicrohttpd's daemon, thread per connection, with bodies read into an
/// `UploadedForm` and answered by a blocking `handler` on the connection's
/// own thread.
///
/// HTTP parsing, multipart decoding, chunked encoding, keep-alive and
/// inactivity timeouts are all libmicrohttpd's; this class only routes its
/// callbacks to Swift and enforces the upload limit.
final class HTTPServer: @unchecked Sendable {
    // `daemon` is set once in `start` and cleared once in `stop`.

    /// Refuses uploads larger than this many bytes (413).
    let uploadByteLimit: Int
    /// Answers a request whose body is complete.
    let handler: @Sendable (HTTPRequest) -> HTTPResponse
    /// Decides, once a request's headers are in, how its body is taken.
    let bodyHandling: @Sendable (HTTPRequest) -> BodyHandling
    private var daemon: OpaquePointer?

    init(uploadByteLimit: Int, bodyHandling: @escaping @Sendable (HTTPRequest) -> BodyHandling = { _ in .form },
         handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.uploadByteLimit = uploadByteLimit
        self.bodyHandling = bodyHandling
        self.handler = handler
    }

    /// Listens on `host:port` (an IPv4 address; port 0 picks a free one) and
    /// returns the bound port.
    /// - Throws: `ServeError.cannotListen` when the address is taken or invalid.
    func start(host: String, port: UInt16, connectionLimit: Int, timeoutSeconds: Int) throws -> UInt16 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw ServeError(.cannotListen, "'\(host)' is not an IPv4 address; use e.g. 127.0.0.1 or 0.0.0.0.")
        }
        let flags = UInt32(MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
                           | MHD_USE_ERROR_LOG.rawValue)
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let started = speech_mhd_start(flags, &address, accessHandler, context, requestCompleted, nil,
                                             UInt32(connectionLimit), UInt32(timeoutSeconds), 256 * 1024) else {
            throw ServeError(.cannotListen, "Cannot listen on \(host):\(port) (in use, or not allowed); "
                             + "choose another --listen address.")
        }
        daemon = started
        return speech_mhd_bound_port(started)
    }

    /// Stops listening and waits for every connection thread to end.
    func stop() {
        guard let daemon else { return }
        self.daemon = nil
        MHD_stop_daemon(daemon)
    }

    /// Per-request state kept in MHD's `con_cls` between calls.
    fileprivate final class Exchange {
        let form: UploadedForm
        var processor: OpaquePointer?
        var rejection: ServiceError?
        var contentType: String?
        /// The body is not a form; refused if any of it arrives.
        var notForm = false
        var query: [String: String] = [:]
        var headers: [String: String] = [:]
        /// Takes the body as it arrives, for raw-body routes.
        var receiver: (any BodyReceiver)?
        var receiverRefused = false
        var receiverFinished = false
        /// A response is queued already (an early 413): later calls only drain.
        var answered = false

        init(byteLimit: Int) { form = UploadedForm(byteLimit: byteLimit) }

        deinit {
            if let processor { MHD_destroy_post_processor(processor) }
            if let receiver, !receiverFinished { receiver.abandon() }
        }
    }

    /// One call of the access handler (several per request: headers, body
    /// pieces, end of body).
    fileprivate func handle(connection: OpaquePointer, method: String, path: String,
                            uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>,
                            state: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let raw = state.pointee else {
            // Headers are in; no body yet.
            let exchange = Exchange(byteLimit: uploadByteLimit)
            exchange.contentType = header(connection, "Content-Type")
            exchange.query = values(connection, kind: 8)  // MHD_GET_ARGUMENT_KIND
            exchange.headers = values(connection, kind: 1).reduce(into: [:]) { $0[$1.key.lowercased()] = $1.value }
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            let head = HTTPRequest(method: method, path: path, contentType: exchange.contentType,
                                   query: exchange.query, headers: exchange.headers)
            switch bodyHandling(head) {
            case .form: break
            case .receive(let receiver):
                exchange.receiver = receiver
                return mhdYes
            case .refuse(let error):
                exchange.answered = true
                return queue(.error(error), on: connection)
            }
            if method == "POST" {
                if let length = header(connection, "Content-Length").flatMap(Int.init), length > uploadByteLimit {
                    // Answer now, before reading a body that will be refused.
                    exchange.answered = true
                    return queue(.error(tooLarge()), on: connection)
                }
                let context = Unmanaged.passUnretained(exchange).toOpaque()
                exchange.processor = MHD_create_post_processor(connection, 64 * 1024, postIterator, context)
                // Not a form: refused once body bytes arrive (an empty POST is fine).
                exchange.notForm = exchange.processor == nil
            }
            return mhdYes
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
        if exchange.answered {
            uploadSize.pointee = 0
            return mhdYes
        }
        if let receiver = exchange.receiver {
            if uploadSize.pointee > 0 {
                if !exchange.receiverRefused {
                    let bytes = UnsafeRawBufferPointer(start: uploadData, count: uploadSize.pointee)
                    exchange.receiverRefused = !receiver.receive(bytes)
                }
                uploadSize.pointee = 0
                return mhdYes
            }
            exchange.receiverFinished = true
            return queue(receiver.finish(), on: connection)
        }
        if uploadSize.pointee > 0 {
            if exchange.notForm, exchange.rejection == nil {
                exchange.rejection = ServiceError(.invalidRequest, code: "invalid_content_type",
                    "Send the request as multipart/form-data (curl -F file=@audio.wav), not \(exchange.contentType ?? "without a Content-Type").")
            }
            if exchange.rejection == nil, !exchange.form.exceededLimit, let processor = exchange.processor,
               MHD_post_process(processor, uploadData, uploadSize.pointee) != mhdYes {
                exchange.rejection = ServiceError(.invalidRequest, code: "malformed_body",
                                                  "The multipart body could not be read; check its boundary and parts.")
            }
            uploadSize.pointee = 0
            return mhdYes
        }
        exchange.form.finishReceiving()
        if exchange.form.exceededLimit { return queue(.error(tooLarge()), on: connection) }
        if let rejection = exchange.rejection { return queue(.error(rejection), on: connection) }
        let request = HTTPRequest(method: method, path: path, contentType: exchange.contentType,
                                  form: method == "POST" ? exchange.form : nil, query: exchange.query,
                                  headers: exchange.headers)
        return queue(handler(request), on: connection)
    }

    private func tooLarge() -> ServiceError {
        ServiceError(.tooLarge, code: "file_too_large",
                     "The upload is larger than the service's limit of \(uploadByteLimit / (1024 * 1024)) MB; "
                     + "send a shorter or compressed file, or start the service with a larger --max-upload-mb.")
    }

    private func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, MHD_ValueKind(rawValue: 1)!, name).map { String(cString: $0) }
    }

    /// Every key and value of one MHD value kind (1 headers, 8 query arguments).
    private func values(_ connection: OpaquePointer, kind: UInt32) -> [String: String] {
        let box = ValueBox()
        let context = Unmanaged.passUnretained(box).toOpaque()
        _ = MHD_get_connection_values(connection, MHD_ValueKind(rawValue: kind)!, valueIterator, context)
        return box.values
    }

    /// Collects `values`' pairs from MHD's iterator.
    fileprivate final class ValueBox {
        var values: [String: String] = [:]
    }

    /// Hands `response` to MHD.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        let made: OpaquePointer?
        switch response.body {
        case .bytes(let data):
            made = data.withUnsafeBytes { bytes in
                MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                                MHD_ResponseMemoryMode(rawValue: 2)!)
            }
        case .stream(let stream):
            let context = Unmanaged.passRetained(stream).toOpaque()
            made = MHD_create_response_from_callback(speech_mhd_size_unknown(), 16 * 1024, streamReader, context,
                                                     streamFreed)
        }
        guard let mhdResponse = made else { return mhdNo }
        defer { MHD_destroy_response(mhdResponse) }
        MHD_add_response_header(mhdResponse, "Content-Type", response.contentType)
        for header in response.headers { MHD_add_response_header(mhdResponse, header.name, header.value) }
        if case .stream = response.body { MHD_add_response_header(mhdResponse, "Cache-Control", "no-cache") }
        return MHD_queue_response(connection, UInt32(response.status), mhdResponse)
    }

    fileprivate static func exchange(of raw: UnsafeMutableRawPointer) -> Exchange {
        Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
    }
}

/// libmicrohttpd's `MHD_YES` and `MHD_NO` (a closed C enum).
private let mhdYes = MHD_Result(rawValue: 1)!
private let mhdNo = MHD_Result(rawValue: 0)!

// MARK: - C callbacks (no captures: the context pointers carry the objects)

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, uploadData, uploadSize, state in
    guard let context, let connection, let url, let method, let uploadSize, let state else { return mhdNo }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.handle(connection: connection, method: String(cString: method), path: String(cString: url),
                         uploadData: uploadData, uploadSize: uploadSize, state: state)
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, state, _ in
    // The request is over (answered, timed out, or the client went away):
    // release its state, which deletes the uploaded file.
    guard let state, let raw = state.pointee else { return }
    Unmanaged<HTTPServer.Exchange>.fromOpaque(raw).release()
    state.pointee = nil
}

private let postIterator: MHD_PostDataIterator = { context, _, key, fileName, _, _, data, offset, size in
    guard let context, let key else { return mhdNo }
    let exchange = HTTPServer.exchange(of: context)
    if offset == 0 { exchange.form.beginPart() }
    let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    let accepted = exchange.form.receive(key: String(cString: key), fileName: fileName.map { String(cString: $0) },
                                         bytes: bytes)
    return accepted ? mhdYes : mhdNo
}

private let valueIterator: MHD_KeyValueIterator = { context, _, key, value in
    guard let context, let key else { return mhdYes }
    let box = Unmanaged<HTTPServer.ValueBox>.fromOpaque(context).takeUnretainedValue()
    box.values[String(cString: key)] = value.map { String(cString: $0) } ?? ""
    return mhdYes
}

private let streamReader: MHD_ContentReaderCallback = { context, _, buffer, capacity in
    guard let context, let buffer else { return speech_mhd_end_with_error() }
    let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeUnretainedValue()
    guard let count = stream.read(into: buffer, capacity: capacity) else { return speech_mhd_end_of_stream() }
    return count
}

private let streamFreed: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    let stream = Unmanaged<ResponseStream>.fromOpaque(context).takeRetainedValue()
    stream.abandon()
}
