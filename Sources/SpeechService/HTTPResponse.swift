import Foundation

/// What the service answers one HTTP request with: a status, a content type
/// and a body that is either all there or streamed (server-sent events).
struct HTTPResponse: Sendable {
    /// The body: bytes at once, or a stream written while the work runs.
    enum Body: Sendable {
        case bytes(Data)
        case stream(ResponseStream)
    }

    var status: Int
    var contentType: String
    var body: Body
    /// Extra headers, e.g. `Retry-After` on a full queue.
    var headers: [(name: String, value: String)] = []

    /// A text body (`text/plain`, SRT, VTT) in UTF-8.
    static func text(_ text: String, contentType: String = "text/plain; charset=utf-8", status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: contentType, body: .bytes(Data(text.utf8)))
    }

    /// A JSON body from an encodable value.
    static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(status: status, contentType: "application/json", body: .bytes(data))
    }

    /// An OpenAI-shaped error: `{"error": {"message", "type", "param", "code"}}`.
    static func error(_ error: ServiceError) -> HTTPResponse {
        var response = json(ErrorBody(error: .init(message: error.message, type: error.kind.type,
                                                   param: error.parameter, code: error.code)),
                            status: error.kind.status)
        if error.kind == .busy { response.headers.append((name: "Retry-After", value: "1")) }
        return response
    }

    private struct ErrorBody: Encodable {
        struct Detail: Encodable {
            var message: String
            var type: String
            var param: String?
            var code: String
        }
        var error: Detail
    }
}

/// A request the service refuses, with the HTTP status and the OpenAI error
/// fields it is reported with. The message says what is wrong and how to fix it.
struct ServiceError: Error, Sendable, CustomStringConvertible {
    /// The class of refusal, which fixes the status.
    enum Kind: Sendable, Equatable {
        /// 400: a field is missing or wrong, or the audio cannot be decoded.
        case invalidRequest
        /// 404: no such endpoint.
        case notFound
        /// 405: the endpoint exists, the method does not.
        case methodNotAllowed
        /// 409: the resource is not in a state to take this (a finished stream).
        case conflict
        /// 413: the upload is larger than `--max-upload-mb`.
        case tooLarge
        /// 503: the queue is full or the service is shutting down; retry later.
        case busy
        /// 500: the engine failed on audio it accepted.
        case server

        var status: Int {
            switch self {
            case .invalidRequest: 400
            case .notFound: 404
            case .methodNotAllowed: 405
            case .conflict: 409
            case .tooLarge: 413
            case .busy: 503
            case .server: 500
            }
        }

        var type: String {
            switch self {
            case .invalidRequest, .notFound, .methodNotAllowed, .conflict, .tooLarge: "invalid_request_error"
            case .busy: "server_busy"
            case .server: "server_error"
            }
        }
    }

    var kind: Kind
    /// A stable machine-readable code, e.g. `missing_file`, `queue_full`.
    var code: String
    var message: String
    /// The form field at fault, if one is.
    var parameter: String?

    init(_ kind: Kind, code: String, _ message: String, parameter: String? = nil) {
        self.kind = kind
        self.code = code
        self.message = message
        self.parameter = parameter
    }

    var description: String { "\(kind.status) \(code): \(message)" }
}
