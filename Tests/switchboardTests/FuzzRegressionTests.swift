import Foundation
import Synchronization
import Testing
import TestSupport

/// Inputs the fuzzers in Fuzz/ found (kept in Fuzz/crashes), replayed
/// through the program as it is used.
@Suite("Fuzzing finds, replayed")
struct FuzzRegressionTests {
    /// Fuzz/crashes/oauth-crash-618764df…: a number too large for `Int`
    /// (`5555…`, sixty digits) read as an integer field of a provider's
    /// answer once stopped the program (`Int(Double)` trapped). Here as the
    /// device authorization's `expires_in`; the sign-in must end with an
    /// error status, not a crash.
    @Test("a huge expires_in from a provider ends the sign-in with an error, not a crash",
          arguments: ["1e30", "\"555555555555555555555555555555555555555555555555555555555555\""])
    func hugeExpiresIn(value: String) async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let base = Mutex("")
        let server = try FaultServer { request in
            let issuer = base.withLock { $0 }
            if request.path == "/.well-known/openid-configuration" {
                return FaultServer.response(200, "application/json", """
                    {"issuer": "\(issuer)", "token_endpoint": "\(issuer)/token", "device_authorization_endpoint": "\(issuer)/device"}
                    """)
            }
            return FaultServer.response(200, "application/json", """
                {"device_code": "d", "user_code": "ABCD-EFGH", "verification_uri": "\(issuer)/verify", "expires_in": \(value), "interval": 0}
                """)
        }
        defer { server.stop() }
        let issuer = server.baseURL.absoluteString
        base.withLock { $0 = issuer }
        let result = try await runProcess(
            builtProduct("switchboard"), ["sign-in", "--issuer", issuer, "--client-id", "c", "--json"],
            environment: ["SWITCHBOARD_DATABASE": folder.file("db.sqlite"), "SWITCHBOARD_SESSION": "tty-test"], timeout: 30)
        #expect([13, 15].contains(result.status), "status \(result.status): \(result.stderr.suffix(400))")
        // Whatever the status, nothing was stored and no token was printed.
        #expect(!result.stdout.contains("\"event\":\"outcome\",\"outcome\":\"approved\""))
    }
}
