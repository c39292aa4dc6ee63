import FlyingFox
import Foundation

/// Builders for the server's responses: JSON, OAuth errors and HTML.
enum Reply {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    /// A JSON response. Every response carries `Cache-Control: no-store`: they
    /// hold secrets, or describe a key and settings that change at run time.
    static func json(_ value: some Encodable, status: HTTPStatusCode = .ok) -> HTTPResponse {
        guard let body = try? encoder.encode(value) else {
            return HTTPResponse(statusCode: .internalServerError, headers: baseHeaders(type: "text/plain"))
        }
        return HTTPResponse(statusCode: status, headers: baseHeaders(type: "application/json"), body: body)
    }

    /// An error in the OAuth shape, `{"error": code, "error_description": …}` (RFC 6749 §5.2).
    static func error(_ code: String, _ description: String? = nil, status: HTTPStatusCode = .badRequest) -> HTTPResponse {
        json(ErrorBody(error: code, errorDescription: description), status: status)
    }

    /// A UTF-8 HTML page that may not be framed, load anything, or post elsewhere.
    static func html(_ page: String, status: HTTPStatusCode = .ok) -> HTTPResponse {
        var headers = baseHeaders(type: "text/html; charset=utf-8")
        headers[HTTPHeader("Content-Security-Policy")] =
            "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'"
        headers[HTTPHeader("X-Frame-Options")] = "DENY"
        // same-origin, not no-referrer: with no-referrer a browser sends
        // `Origin: null` with the page's own form post.
        headers[HTTPHeader("Referrer-Policy")] = "same-origin"
        return HTTPResponse(statusCode: status, headers: headers, body: Data(page.utf8))
    }

    private static func baseHeaders(type: String) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[HTTPHeader("Pragma")] = "no-cache"
        headers[HTTPHeader("X-Content-Type-Options")] = "nosniff"
        return headers
    }
}

/// The body of every JSON error.
struct ErrorBody: Encodable {
    let error: String
    let errorDescription: String?
}

extension HTTPRequest {
    /// The `application/x-www-form-urlencoded` body as a dictionary; the first
    /// occurrence of a repeated field wins. Empty when unreadable.
    func formFields() async -> [String: String] {
        guard let data = try? await bodyData, let text = String(data: data, encoding: .utf8) else { return [:] }
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.formDecode(parts[0])
            if fields[name] == nil { fields[name] = parts.count > 1 ? Self.formDecode(parts[1]) : "" }
        }
        return fields
    }

    /// The JSON body decoded as `T` (snake_case keys), or nil when absent or malformed.
    func jsonBody<T: Decodable>(_ type: T.Type) async -> T? {
        guard let data = try? await bodyData else { return nil }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try? decoder.decode(type, from: data.isEmpty ? Data("{}".utf8) : data)
    }

    /// The token of an `Authorization: Bearer …` header (RFC 6750 §2.1).
    var bearerToken: String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    private static func formDecode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
