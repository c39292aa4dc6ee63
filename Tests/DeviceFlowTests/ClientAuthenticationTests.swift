import Foundation
import Synchronization
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

@Suite("Client authentication: HTTP Basic or the form body")
struct ClientAuthenticationTests {
    /// A server that takes the client only by the way it is told (Basic: refuses the body's secret), at every endpoint.
    static func server(requiring method: ClientAuthentication, seen: Recorder<FaultServer.Request>) throws -> FaultServer {
        try FaultServer { request in
            seen.add(request)
            let form = FormEncoding.decode(request.body)
            let basic = request.headers["authorization"] == "Basic " + Data("id%3A1:s%20e%2Fcr%C3%A9t".utf8).base64EncodedString()
            let posted = form["client_id"] == "id:1" && form["client_secret"] == "s e/crét"
            guard method == .basic ? basic && form["client_secret"] == nil : posted && request.headers["authorization"] == nil else {
                return FaultServer.response(401, "application/json", #"{"error":"invalid_client"}"#)
            }
            switch request.path {
            case "/device":
                return FaultServer.response(200, "application/json",
                    #"{"device_code":"d","user_code":"U","verification_uri":"https://x.test/d","expires_in":60,"interval":5}"#)
            case "/revoke": return FaultServer.response(200, "application/json", "{}")
            default: return FaultServer.response(200, "application/json", #"{"access_token":"a2","token_type":"Bearer","expires_in":60}"#)
            }
        }
    }

    @Test("a secret goes as the server requires, at the device, token and revocation endpoints: Basic with id and secret form-encoded first, or the body", arguments: ClientAuthentication.allCases)
    func method(_ method: ClientAuthentication) async throws {
        let seen = Recorder<FaultServer.Request>()
        let server = try Self.server(requiring: method, seen: seen)
        defer { server.stop() }
        let client = ClientCredentials(clientID: "id:1", clientSecret: "s e/crét", authentication: method)
        let transport = URLSessionTransport(timeout: 5)
        let flow = DeviceFlow(
            deviceAuthorizationEndpoint: server.baseURL.appendingPathComponent("device"), tokenEndpoint: server.baseURL.appendingPathComponent("token"),
            client: client, scopes: ["openid"], transport: transport, clock: ManualClock())
        let code = try await flow.requestCode()
        #expect(code.userCode == "U")
        let tokens = TokenClient(client: client, transport: transport)
        let refreshed = try await tokens.refresh(TokenSet(accessToken: "a", refreshToken: "r"), at: server.baseURL.appendingPathComponent("token"))
        guard case .refreshed(let fresh) = refreshed else { Issue.record("\(refreshed)"); return }
        #expect(fresh.accessToken == "a2")
        try await tokens.revoke("r", hint: "refresh_token", at: server.baseURL.appendingPathComponent("revoke"))
        #expect(seen.all.map(\.path) == ["/device", "/token", "/revoke"])
        // The other way is refused by this server: what it got was not what it takes.
        let other = ClientCredentials(clientID: "id:1", clientSecret: "s e/crét", authentication: method == .basic ? .post : .basic)
        await #expect(throws: FlowFailure.self) {
            _ = try await TokenClient(client: other, transport: transport).refresh(TokenSet(accessToken: "a", refreshToken: "r"), at: server.baseURL)
        }
    }

    @Test("a client without a secret names itself in the body and sends no Authorization")
    func publicClient() async throws {
        let seen = Recorder<FaultServer.Request>()
        let server = try FaultServer { request in
            seen.add(request)
            return FaultServer.response(200, "application/json", #"{"access_token":"a2","token_type":"Bearer"}"#)
        }
        defer { server.stop() }
        _ = try await TokenClient(client: ClientCredentials(clientID: "pub"), transport: URLSessionTransport(timeout: 5))
            .refresh(TokenSet(accessToken: "a", refreshToken: "r"), at: server.baseURL)
        let request = try #require(seen.all.first)
        #expect(FormEncoding.decode(request.body)["client_id"] == "pub" && request.headers["authorization"] == nil)
    }

    @Test("the method the metadata prefers: Basic when listed or nothing is listed, the body when only it is", arguments: [
        (nil, ClientAuthentication.basic), ([], .basic), (["client_secret_post"], .post),
        (["client_secret_post", "client_secret_basic"], .basic), (["private_key_jwt"], .basic),
    ] as [([String]?, ClientAuthentication)])
    func preferred(listed: [String]?, expected: ClientAuthentication) {
        #expect(ClientAuthentication.preferred(by: listed) == expected)
    }
}
