import Foundation
import Synchronization
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

private let json = "application/json"

/// Where in a sign-in an answer can come.
enum FlowStage: String, CaseIterable, Sendable {
    case deviceAuthorization, polling, refresh, userinfo, discovery, jwks
}

/// Runs `stage` against `server` (every path but `/device` answers as the
/// server says), returning how it failed.
private func failure(at stage: FlowStage, on server: FaultServer, transport: URLSessionTransport) async -> FlowFailure? {
    let base = server.baseURL
    let client = ClientCredentials(clientID: "c")
    do {
        switch stage {
        case .deviceAuthorization, .polling:
            let flow = DeviceFlow(
                deviceAuthorizationEndpoint: base.appendingPathComponent(stage == .polling ? "device" : "big"),
                tokenEndpoint: base.appendingPathComponent("token"), client: client, scopes: [], transport: transport, clock: ManualClock())
            _ = try await flow.requestCode()
            if case .failed(let failure) = await flow.waitForApproval() { return failure }
            return nil
        case .refresh:
            _ = try await TokenClient(client: client, transport: transport).refresh(TokenSet(accessToken: "a", refreshToken: "r"), at: base)
        case .userinfo:
            let endpoints = ProviderEndpoints(deviceAuthorization: nil, token: base, userinfo: base.appendingPathComponent("userinfo"))
            _ = try await IdentityResolver(provider: "p", endpoints: endpoints, clientID: "c", transport: transport).identity(for: TokenSet(accessToken: "a"))
        case .discovery:
            _ = try await OIDCDiscovery.fetch(issuer: base, transport: transport)
        case .jwks:
            let endpoints = ProviderEndpoints(issuer: base.absoluteString, deviceAuthorization: nil, token: base, jwks: base.appendingPathComponent("jwks"))
            let token = try await Minter.make(kid: "k").sign(goodClaims())
            _ = try await IdentityResolver(provider: "p", endpoints: endpoints, clientID: "c", transport: transport)
                .identity(for: TokenSet(accessToken: "a", idToken: token))
        }
    } catch let error as FlowFailure {
        return error
    } catch {
        return .configuration("unexpected \(error)")
    }
    return nil
}

private let goodDevice = FaultServer.response(
    200, json, #"{"device_code":"d","user_code":"U","verification_uri":"https://x.test/d","expires_in":60,"interval":5}"#)

@Suite("Answers that cannot be used are the provider's fault, at once, wherever they come")
struct ProviderFaultTests {
    @Test("a transport failure is offline only when no answer came", arguments: [
        (TransportError.tooLarge(host: "h", limit: 4096), "invalid"), (.redirectRefused(from: "http://h:1", to: "http://h:2"), "invalid"),
        (.timedOut(host: "h"), "offline"), (.unreachable(host: "h", detail: "reset"), "offline"), (.cancelled, "cancelled"),
    ])
    func classified(error: TransportError, kind: String) {
        switch FlowFailure(error) {
        case .invalidResponse(let detail): #expect(kind == "invalid" && detail == error.description)
        case .offline(let detail): #expect(kind == "offline" && detail == error.description)
        case .cancelled: #expect(kind == "cancelled")
        default: Issue.record("unexpected \(FlowFailure(error))")
        }
    }

    @Test("an answer over the size limit is a provider error at once, at every stage of a sign-in", arguments: FlowStage.allCases)
    func tooLarge(stage: FlowStage) async throws {
        let requests = Atomic<Int>(0)
        let server = try FaultServer { request in
            requests.add(1, ordering: .relaxed)
            return request.path == "/device" ? goodDevice : FaultServer.response(200, json, Data(repeating: 0x20, count: 64 << 10))
        }
        defer { server.stop() }
        let result = await failure(at: stage, on: server, transport: URLSessionTransport(timeout: 5, maximumBytes: 4096))
        #expect(result == .invalidResponse("127.0.0.1 sent a response over 4 KiB; refused"))
        // One request for the stage (two when polling: the code, then one poll), never a retry.
        #expect(requests.load(ordering: .relaxed) == (stage == .polling ? 2 : 1))
    }

    @Test("a redirect to another origin is a provider error naming both origins, at every stage, and nothing reaches the other",
          arguments: FlowStage.allCases)
    func redirectElsewhere(stage: FlowStage) async throws {
        let (elsewhere, reached) = try countingServer()
        defer { elsewhere.stop() }
        let server = try FaultServer { request in
            request.path == "/device" ? goodDevice : FaultServer.response(302, nil, "", headers: ["Location: http://127.0.0.1:\(elsewhere.port)/x"])
        }
        defer { server.stop() }
        let result = await failure(at: stage, on: server, transport: URLSessionTransport(timeout: 5))
        let refused = TransportError.redirectRefused(from: "http://127.0.0.1:\(server.port)", to: "http://127.0.0.1:\(elsewhere.port)")
        #expect(result == .invalidResponse(refused.description))
        #expect(reached.value == 0)
    }
}

@Suite("A refresh refused without an error code")
struct BareRefusalTests {
    @Test("a 400 or 401 naming no error, empty or not, is the provider refusing the refresh token: revoked, saying how", arguments: [
        (400, "", "HTTP 400, no error code"), (401, "", "HTTP 401, no error code"), (400, "<html>no</html>", "HTTP 400, no error code"),
    ])
    func bare(status: Int, body: String, why: String) async throws {
        let server = try FaultServer { _ in FaultServer.response(status, body.isEmpty ? nil : "text/html", body) }
        defer { server.stop() }
        let result = try await TokenClient(client: ClientCredentials(clientID: "c"), transport: URLSessionTransport(timeout: 5))
            .refresh(TokenSet(accessToken: "a", refreshToken: "r"), at: server.baseURL)
        #expect(result == .revoked(why: why))
    }

    @Test("invalid_grant is revoked in its own word; a 500 or a 400 with another error stays the provider's failure, in good grammar")
    func others() async throws {
        let answers: [(Int, String)] = [(400, #"{"error":"invalid_grant"}"#), (500, ""), (400, #"{"error":"invalid_client"}"#)]
        var results: [String] = []
        for (status, body) in answers {
            let server = try FaultServer { _ in FaultServer.response(status, body.isEmpty ? nil : "application/json", body) }
            defer { server.stop() }
            do {
                let result = try await TokenClient(client: ClientCredentials(clientID: "c"), transport: URLSessionTransport(timeout: 5))
                    .refresh(TokenSet(accessToken: "a", refreshToken: "r"), at: server.baseURL)
                results.append("\(result)")
            } catch {
                results.append(error.description)
            }
        }
        #expect(results[0] == "\(TokenClient.RefreshResult.revoked(why: "revoked"))")
        #expect(results[1].hasSuffix("HTTP 500 from 127.0.0.1 with an empty body"), "\(results[1])")
        #expect(results[2].contains("invalid_client"), "\(results[2])")
    }
}

@Suite("Redirects keep the origin: scheme, host and port")
struct RedirectOriginTests {
    @Test("a redirect that changes scheme, host or port is refused, naming both origins", arguments: [
        "http://127.0.0.1:PORT2/x", "http://localhost:PORT/x", "https://127.0.0.1:PORT/x", "http://127.0.0.2:PORT/x", "http://127.0.0.1/x",
    ])
    func refused(target: String) async throws {
        let (other, reached) = try countingServer()
        defer { other.stop() }
        let box = Mutex<String>("")
        let server = try FaultServer { request in
            if request.path != "/start" { reached.add() }
            return FaultServer.response(307, nil, "", headers: ["Location: " + box.withLock { $0 }])
        }
        defer { server.stop() }
        let location = target.replacingOccurrences(of: "PORT2", with: "\(other.port)").replacingOccurrences(of: "PORT", with: "\(server.port)")
        box.withLock { $0 = location }
        let to = httpOrigin(of: URL(string: location)!)!
        await #expect(throws: TransportError.redirectRefused(from: "http://127.0.0.1:\(server.port)", to: to)) {
            try await URLSessionTransport(timeout: 5).send(HTTPRequest(url: server.baseURL.appendingPathComponent("start")))
        }
        #expect(reached.value == 0)
    }

    @Test("a redirect within the origin is followed for a GET without credentials")
    func sameOrigin() async throws {
        let server = try FaultServer { request in
            request.path == "/old" ? FaultServer.response(301, nil, "", headers: ["Location: /new"]) : FaultServer.response(200, json, #"{"at":"new"}"#)
        }
        defer { server.stop() }
        let response = try await URLSessionTransport(timeout: 5).send(HTTPRequest(url: server.baseURL.appendingPathComponent("old")))
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == #"{"at":"new"}"#)
    }

    @Test("origins: lower-case scheme and host, the scheme's default port when none is written", arguments: [
        ("HTTPS://Login.Example.COM/a", "https://login.example.com:443"), ("http://127.0.0.1/", "http://127.0.0.1:80"),
        ("http://127.0.0.1:80/x", "http://127.0.0.1:80"), ("http://[::1]:8080/", "http://[::1]:8080"),
        ("https://h.test:8443", "https://h.test:8443"),
    ])
    func origins(url: String, origin: String) {
        #expect(httpOrigin(of: URL(string: url)!) == origin)
    }
}

/// How many requests a server got.
private final class Reached: Sendable {
    private let count = Atomic<Int>(0)
    func add() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

/// A server a redirect must never reach: it counts the requests it gets.
private func countingServer() throws -> (FaultServer, Reached) {
    let reached = Reached()
    let server = try FaultServer { _ in
        reached.add()
        return FaultServer.response(200, json, "{}")
    }
    return (server, reached)
}
