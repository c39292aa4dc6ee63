import Foundation
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

/// A flow whose device endpoint answers `device` and whose token endpoint answers `token`.
private func flow(device: String, token: String = #"{"error":"authorization_pending"}"#) throws -> (FaultServer, DeviceFlow, ManualClock) {
    let server = try FaultServer { request in
        FaultServer.response(request.path.hasSuffix("/device") ? 200 : (token.contains("error") ? 400 : 200), "application/json",
                             request.path.hasSuffix("/device") ? device : token)
    }
    let clock = ManualClock()
    let flow = DeviceFlow(
        deviceAuthorizationEndpoint: server.baseURL.appendingPathComponent("device"),
        tokenEndpoint: server.baseURL.appendingPathComponent("token"),
        client: ClientCredentials(clientID: "c"), scopes: ["openid"], transport: URLSessionTransport(timeout: 2), clock: clock)
    return (server, flow, clock)
}

private func authorization(expiresIn: String, interval: String = "5") -> String {
    #"{"device_code":"dc","user_code":"WDJB-MJHT","verification_uri":"https://example.test/device","expires_in":\#(expiresIn),"interval":\#(interval)}"#
}

@Suite("Numbers from the provider: checked and clamped, never a trap")
struct ProviderNumberTests {
    @Test("expires_in that is not a finite, non-negative number is an invalid response naming the field", arguments: [
        #""nan""#, #""NaN""#, #""inf""#, #""-inf""#, #""infinity""#, "-1", #""-5""#, #""soon""#,
    ])
    func unusableLifetime(value: String) async throws {
        let (server, flow, _) = try flow(device: authorization(expiresIn: value))
        defer { server.stop() }
        await #expect {
            _ = try await flow.requestCode()
        } throws: { error in
            guard case FlowFailure.invalidResponse(let detail) = error else { return false }
            return detail.contains("expires_in")
        }
    }

    @Test("huge expires_in (number or string) is cut to one day", arguments: [
        "1e300", #""1e300""#, "1e19", #""1e19""#, "9223372036854775807", #""9223372036854775807""#, "9223372036854775806.5", "86401",
    ])
    func hugeLifetime(value: String) async throws {
        let (server, flow, clock) = try flow(device: authorization(expiresIn: value))
        defer { server.stop() }
        let code = try await flow.requestCode()
        #expect(code.expiresIn == DeviceAuthorization.longestLifetime)
        #expect(code.expiresAt == clock.now().addingTimeInterval(86_400))
    }

    @Test("interval is kept within 1…600 s; missing or unusable means 5 s", arguments: [
        ("20000000000", 600), (#""1e300""#, 600), ("601", 600), ("0", 1), ("0.5", 1), ("7", 7),
        (#""nan""#, 5), (#""inf""#, 5), ("-3", 5), (#""often""#, 5),
    ])
    func interval(value: String, expected: Int) async throws {
        let (server, flow, _) = try flow(device: authorization(expiresIn: "600", interval: value))
        defer { server.stop() }
        #expect(try await flow.requestCode().interval == expected)
    }

    @Test("slow_down never pushes the interval past 600 s")
    func slowDownCap() async throws {
        let (server, flow, _) = try flow(device: authorization(expiresIn: "86400", interval: "598"), token: #"{"error":"slow_down"}"#)
        defer { server.stop() }
        _ = try await flow.requestCode()
        let intervals = Recorder<Int>()
        let result = await flow.waitForApproval { event in
            if case .slowedDown(let interval) = event { intervals.add(interval) }
        }
        #expect(result == .expired)
        #expect(!intervals.all.isEmpty && intervals.all.allSatisfy { $0 == 600 })
    }

    @Test("a token's expires_in of nan or inf is an invalid response", arguments: [#""nan""#, #""inf""#, "-1"])
    func unusableTokenLifetime(value: String) async throws {
        let (server, flow, _) = try flow(device: authorization(expiresIn: "60"), token: #"{"access_token":"at","token_type":"Bearer","expires_in":\#(value)}"#)
        defer { server.stop() }
        _ = try await flow.requestCode()
        guard case .failed(.invalidResponse(let detail)) = await flow.waitForApproval() else {
            Issue.record("expected an invalid response")
            return
        }
        #expect(detail.contains("expires_in"))
    }

    @Test("a token's huge expires_in is cut to 366 days", arguments: ["1e300", #""1e19""#, "9223372036854775807"])
    func hugeTokenLifetime(value: String) async throws {
        let (server, flow, clock) = try flow(device: authorization(expiresIn: "60"), token: #"{"access_token":"at","token_type":"Bearer","expires_in":\#(value)}"#)
        defer { server.stop() }
        _ = try await flow.requestCode()
        guard case .approved(let tokens) = await flow.waitForApproval() else {
            Issue.record("expected approval")
            return
        }
        let expected = clock.now().timeIntervalSince1970 + Double(TokenClient.longestTokenLifetime)
        #expect(tokens.expiresAt == Moment(secondsSince1970: expected))
    }
}
