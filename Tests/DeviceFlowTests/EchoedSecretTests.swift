import Foundation
import Testing
import TestSupport
@testable import DeviceFlow
import SwitchboardCore

/// A provider that repeats a secret it holds in a public field: the trace,
/// the failure's words and the code's complete URI never show it.
@Suite("Secrets a provider repeats in public fields")
struct EchoedSecretTests {
    static let deviceCode = "dev-code-0123456789abcdef"
    static let secret = "client-secret-s3cr3t"
    static let refreshToken = "refresh-token-0123456789"

    static func shown(_ trace: FlowTrace) -> String {
        trace.entries.map { ([$0.result] + $0.sent + $0.received).joined(separator: "\n") }.joined(separator: "\n")
    }

    @Test("the device code and the client secret, in error_description, error_uri, message or a complete URI, raw or encoded")
    func deviceFlow() async throws {
        let server = try FaultServer { request in
            if request.path == "/device" {
                return FaultServer.response(200, "application/json", """
                    {"device_code":"\(Self.deviceCode)","user_code":"U","verification_uri":"https://x.test/d",
                     "verification_uri_complete":"https://x.test/d?c=\(Self.deviceCode)","expires_in":60,"interval":1,
                     "message":"or type \(Self.deviceCode)"}
                    """)
            }
            return FaultServer.response(400, "application/json", """
                {"error":"invalid_client","error_description":"secret \(Self.secret) is wrong for \(Self.deviceCode)",
                 "error_uri":"https://x.test/e?s=client-secret-s3cr3t"}
                """)
        }
        defer { server.stop() }
        let trace = FlowTrace(clock: ManualClock())
        let flow = DeviceFlow(
            deviceAuthorizationEndpoint: server.baseURL.appendingPathComponent("device"), tokenEndpoint: server.baseURL.appendingPathComponent("token"),
            client: ClientCredentials(clientID: "c", clientSecret: Self.secret, authentication: .post), scopes: [],
            transport: TracingTransport(URLSessionTransport(timeout: 5), trace: trace), clock: ManualClock())
        let code = try await flow.requestCode()
        #expect(code.verificationURIComplete == nil, "a complete URI carrying the device code is not used (nor put in a QR code)")
        let result = await flow.waitForApproval()
        guard case .failed(let failure) = result else { Issue.record("\(result)"); return }
        #expect(failure.description.contains("invalid_client: secret ‹20"), "\(failure)")
        for secret in [Self.deviceCode, Self.secret] {
            #expect(!failure.description.contains(secret), "\(failure)")
            #expect(!Self.shown(trace).contains(secret), "\(Self.shown(trace))")
        }
        #expect(Self.shown(trace).contains(FlowTrace.redacted(Self.deviceCode)), "said where it was, as its redaction")
    }

    @Test("the refresh token a refresh spends, repeated in the refusal's words")
    func refresh() async throws {
        let server = try FaultServer { _ in
            FaultServer.response(400, "application/json", #"{"error":"invalid_scope","error_description":"token \#(Self.refreshToken) lacks scope"}"#)
        }
        defer { server.stop() }
        await #expect {
            _ = try await TokenClient(client: ClientCredentials(clientID: "c"), transport: URLSessionTransport(timeout: 5))
                .refresh(TokenSet(accessToken: "a", refreshToken: Self.refreshToken), at: server.baseURL)
        } throws: { error in
            "\(error)".contains("invalid_scope: token ‹24") && !"\(error)".contains(Self.refreshToken)
        }
    }
}
