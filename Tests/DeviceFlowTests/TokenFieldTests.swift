import Foundation
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

/// Characters no token may hold: controls (C0, DEL, C1) and non-ASCII ones.
private let badCharacters: [Character] = ["\u{0}", "\u{1}", "\t", "\n", "\r", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "é", "\u{202E}", "\u{FEFF}"]

private func answer(_ fields: [String: String], type: String = "application/json") -> OAuthFields {
    let body = type.contains("json")
        ? try! JSONSerialization.data(withJSONObject: fields)
        : Data(FormEncoding.encode(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }).utf8)
    return OAuthFields(HTTPResponse(status: 200, headers: ["content-type": type], body: body))
}

private let good = ["access_token": "at-1", "token_type": "Bearer", "refresh_token": "rt-1", "id_token": "h.p.s"]

@Suite("Token fields hold printable ASCII only: anything else is an invalid answer naming the field")
struct TokenFieldTests {
    @Test("every token field, every kind of bad character, JSON or form-encoded: refused, the field named, the token never shown",
          arguments: TokenClient.tokenFields, ["application/json", "application/x-www-form-urlencoded"])
    func refused(field: String, type: String) throws {
        for bad in badCharacters {
            var fields = good
            fields[field] = "secret-\(bad)-value"
            let error = #expect(throws: FlowFailure.self) { try TokenClient.tokens(from: answer(fields, type: type), at: Date()) }
            guard case .invalidResponse(let detail)? = error else {
                Issue.record("expected invalidResponse for \(field) with U+\(String(bad.unicodeScalars.first!.value, radix: 16)), got \(String(describing: error))")
                continue
            }
            #expect(detail.hasPrefix("the token response's \(field) holds "))
            #expect(!detail.contains("secret"))
        }
    }

    @Test("the message says what kind of character it was")
    func wording() {
        var fields = good
        fields["access_token"] = "a\u{0}b"
        #expect(throws: FlowFailure.invalidResponse(
            "the token response's access_token holds a control character (U+0000); a token is printable ASCII, so it is refused")) {
            try TokenClient.tokens(from: answer(fields), at: Date())
        }
        fields["access_token"] = "a\u{202E}b"
        #expect(throws: FlowFailure.invalidResponse(
            "the token response's access_token holds a character that is not printable ASCII (U+202E); a token is printable ASCII, so it is refused")) {
            try TokenClient.tokens(from: answer(fields), at: Date())
        }
    }

    @Test("every printable ASCII character is allowed, space included (RFC 6749's VSCHAR)")
    func printableAllowed() throws {
        let all = String(String.UnicodeScalarView((0x20...0x7E).compactMap(Unicode.Scalar.init)))
        var fields = good
        for field in TokenClient.tokenFields where field != "token_type" { fields[field] = all }
        let tokens = try TokenClient.tokens(from: answer(fields), at: Date())
        #expect(tokens.accessToken == all && tokens.refreshToken == all && tokens.idToken == all)
    }

    @Test("a NUL in an access token ends the flow as the provider's fault, not a token cut short")
    func polledToken() async throws {
        let server = try FaultServer { request in
            request.path == "/device"
                ? FaultServer.response(200, "application/json", #"{"device_code":"d","user_code":"U","verification_uri":"https://x.test/d","expires_in":60}"#)
                : FaultServer.response(200, "application/json", #"{"access_token":"good\u0000evil","token_type":"Bearer"}"#)
        }
        defer { server.stop() }
        let flow = DeviceFlow(
            deviceAuthorizationEndpoint: server.baseURL.appendingPathComponent("device"), tokenEndpoint: server.baseURL.appendingPathComponent("token"),
            client: ClientCredentials(clientID: "c"), scopes: [], transport: URLSessionTransport(timeout: 5), clock: ManualClock())
        _ = try await flow.requestCode()
        #expect(await flow.waitForApproval() == .failed(.invalidResponse(
            "the token response's access_token holds a control character (U+0000); a token is printable ASCII, so it is refused")))
    }

    @Test("a refresh answered with a refresh token holding a control character is refused")
    func refreshedToken() async throws {
        let server = try FaultServer { _ in
            FaultServer.response(200, "application/x-www-form-urlencoded", "access_token=a2&token_type=bearer&refresh_token=r2%0Dx")
        }
        defer { server.stop() }
        let client = TokenClient(client: ClientCredentials(clientID: "c"), transport: URLSessionTransport(timeout: 5))
        await #expect(throws: FlowFailure.invalidResponse(
            "the token response's refresh_token holds a control character (U+000D); a token is printable ASCII, so it is refused")) {
            try await client.refresh(TokenSet(accessToken: "a1", refreshToken: "r1"), at: server.baseURL)
        }
    }

    @Test("a refresh answered without a refresh token or id_token keeps the ones it had; one with an id_token takes it")
    func refreshKeeps() async throws {
        let answers = Recorder<String>()
        let server = try FaultServer { _ in
            answers.add("")
            return answers.all.count == 1
                ? FaultServer.response(200, "application/json", #"{"access_token":"a2","token_type":"Bearer"}"#)
                : FaultServer.response(200, "application/json", #"{"access_token":"a3","token_type":"Bearer","id_token":"h.p2.s"}"#)
        }
        defer { server.stop() }
        let client = TokenClient(client: ClientCredentials(clientID: "c"), transport: URLSessionTransport(timeout: 5))
        let old = TokenSet(accessToken: "a1", refreshToken: "r1", idToken: "h.p1.s")
        #expect(try await client.refresh(old, at: server.baseURL) == .refreshed(TokenSet(accessToken: "a2", refreshToken: "r1", idToken: "h.p1.s")))
        #expect(try await client.refresh(old, at: server.baseURL) == .refreshed(TokenSet(accessToken: "a3", refreshToken: "r1", idToken: "h.p2.s")))
    }
}
