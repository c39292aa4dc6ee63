import DemoProvider
import Foundation
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as the tests see it.
struct Reply: Sendable {
    let status: Int
    let headers: [String: String]
    let data: Data

    var text: String { String(decoding: data, as: UTF8.self) }
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:] }
    var jsonArray: [[String: Any]] { (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? [] }
    var error: String? { json["error"] as? String }

    /// A header value, case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Decodes the body as `T`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }
}

/// A minimal HTTP client over URLSession.
enum HTTP {
    static let session = URLSession(configuration: .ephemeral)

    static func get(_ url: URL, bearer: String? = nil, headers: [String: String] = [:]) async throws -> Reply {
        var request = URLRequest(url: url)
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await send(request)
    }

    /// A form post; to `/device`, as the approval page's own form posts it
    /// (with the server's origin) unless `headers` says otherwise.
    static func postForm(_ url: URL, _ fields: [String: String], headers: [String: String]? = nil) async throws -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let pageOrigin = url.path == "/device" ? ["Origin": "http://\(url.host!):\(url.port!)"] : [:]
        for (name, value) in headers ?? pageOrigin { request.setValue(value, forHTTPHeaderField: name) }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        request.httpBody = Data(fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&").utf8)
        return try await send(request)
    }

    static func postJSON(
        _ url: URL, _ object: [String: any Sendable], headers: [String: String] = [:], session: URLSession = HTTP.session
    ) async throws -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = try JSONSerialization.data(withJSONObject: object)
        return try await send(request, session: session)
    }

    /// A POST of `body` as it is, with `headers`.
    static func post(_ url: URL, body: String, headers: [String: String]) async throws -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = Data(body.utf8)
        return try await send(request)
    }

    /// A POST of `body` exactly as written, for JSON that `JSONSerialization` will not write.
    static func postJSONText(_ url: URL, _ body: String) async throws -> Reply {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        return try await send(request)
    }

    private static func send(_ request: URLRequest, session: URLSession = HTTP.session) async throws -> Reply {
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return Reply(status: http.statusCode, headers: headers, data: data)
    }
}

/// A clock the tests move by hand.
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

/// A running server on a free loopback port, and the base URL it reported.
struct Harness: Sendable {
    let server: DemoServer
    let base: URL
    let clientID = "switchboard-tests"

    func url(_ path: String) -> URL { URL(string: base.absoluteString + path)! }

    /// `POST /device_authorization`; returns the JSON body.
    func startFlow(scope: String = "openid profile email offline_access") async throws -> DeviceStart {
        let reply = try await HTTP.postForm(url("/device_authorization"), ["client_id": clientID, "scope": scope])
        #expect(reply.status == 200)
        return try reply.decode(DeviceStart.self)
    }

    /// One device-code poll of `POST /token`.
    func poll(_ deviceCode: String) async throws -> Reply {
        try await HTTP.postForm(url("/token"), [
            "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
            "device_code": deviceCode, "client_id": clientID,
        ])
    }

    /// `POST /token` with a refresh token.
    func refresh(_ refreshToken: String) async throws -> Reply {
        try await HTTP.postForm(url("/token"), [
            "grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": clientID,
        ])
    }

    /// `POST /api/approve`.
    func apiApprove(_ userCode: String, person: String = "ada", deny: Bool = false) async throws -> Reply {
        try await HTTP.postJSON(url("/api/approve"), ["user_code": userCode, "person": person, "deny": deny])
    }

    /// Runs a whole flow for `person` and returns the token response.
    func signIn(as person: String = "ada") async throws -> TokenBody {
        let start = try await startFlow()
        #expect(try await apiApprove(start.user_code, person: person).status == 200)
        let reply = try await poll(start.device_code)
        #expect(reply.status == 200)
        return try reply.decode(TokenBody.self)
    }
}

/// The device authorization response.
struct DeviceStart: Decodable {
    let device_code: String
    let user_code: String
    let verification_uri: String
    let verification_uri_complete: String
    let expires_in: Int
    let interval: Int
}

/// A successful token response.
struct TokenBody: Decodable {
    let access_token: String
    let token_type: String
    let expires_in: Int
    let refresh_token: String
    let id_token: String
    let scope: String
}

/// Starts a server on a free loopback port, runs `body`, and stops the server.
func withServer(
    settings: DemoSettings = DemoSettings(),
    clock: TestClock? = nil,
    _ body: (Harness) async throws -> Void
) async throws {
    let server = if let clock { DemoServer(settings: settings, now: { clock.now }) } else { DemoServer(settings: settings) }
    let base = try await server.start(port: 0)
    do {
        try await body(Harness(server: server, base: base))
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
