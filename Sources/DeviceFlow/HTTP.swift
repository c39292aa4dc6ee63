import Foundation

/// An HTTP request as the device-flow code builds it.
public struct HTTPRequest: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?
    /// Seconds this request may take, when less than the transport's limit.
    public var timeout: TimeInterval?

    public init(method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil, timeout: TimeInterval? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// Method and URL only: headers and body may hold secrets.
    public var description: String { "\(method) \(url.absoluteString)" }
    public var debugDescription: String { description }

    /// A POST of `application/x-www-form-urlencoded` fields, in the given order.
    public static func form(_ url: URL, _ fields: [(String, String)], headers: [String: String] = [:]) -> HTTPRequest {
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        headers["Accept"] = "application/json"
        return HTTPRequest(method: "POST", url: url, headers: headers, body: Data(FormEncoding.encode(fields).utf8))
    }
}

/// What came back.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    public var contentType: String { headers["content-type"]?.lowercased() ?? "" }
}

/// Why a request got no usable response. Never holds a request body.
public enum TransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No answer within the time allowed.
    case timedOut(host: String)
    /// Could not connect, or the connection broke.
    case unreachable(host: String, detail: String)
    /// The response was larger than the limit and was not read.
    case tooLarge(host: String, limit: Int)
    /// The server redirected to another origin (scheme, host and port),
    /// which is never followed. Both are written `scheme://host:port`.
    case redirectRefused(from: String, to: String)
    /// The caller cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .timedOut(let host): "\(host) did not answer in time"
        case .unreachable(let host, let detail): "cannot reach \(host): \(detail)"
        case .tooLarge(let host, let limit): "\(host) sent a response over \(limit / 1024) KiB; refused"
        case .redirectRefused(let from, let to): "\(from) redirected to \(to), another origin; refused (a redirect must keep scheme, host and port)"
        case .cancelled: "cancelled"
        }
    }

    /// Whether the server did answer, with something that cannot be used (too
    /// large, a redirect elsewhere): the provider's fault, not the network's,
    /// so asking again would not help.
    public var isProviderFault: Bool {
        switch self {
        case .tooLarge, .redirectRefused: true
        case .timedOut, .unreachable, .cancelled: false
        }
    }
}

/// The origin of `url` (RFC 6454) as `scheme://host:port`, with the
/// scheme's default port when the URL names none; nil without a scheme or
/// host. Scheme and host are compared in lower case.
public func httpOrigin(of url: URL) -> String? {
    guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
    let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
    let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    return "\(scheme)://\(shownHost)" + (port >= 0 ? ":\(port)" : "")
}

/// Sends HTTP requests. The real one is `URLSessionTransport`; tests may
/// swap in their own, as for every other piece of I/O.
public protocol HTTPTransport: Sendable {
    /// Sends `request`. Throws `TransportError`; cancelling the calling task
    /// cancels the request at once.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

/// Percent-encoding for form bodies (`application/x-www-form-urlencoded`).
public enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    public static func decode(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = unescape(String(parts[0]))
            result[key] = parts.count > 1 ? unescape(String(parts[1])) : ""
        }
        return result
    }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }
}
