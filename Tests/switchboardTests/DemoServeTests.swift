import Foundation
import Testing
import TestSupport

@Suite("switchboard demo serve: its options")
struct DemoServeTests {
    @Test("--expires-in under 10 seconds is refused with the reason (exit 64)", arguments: ["0", "9", "-5"])
    func shortExpiry(value: String) async throws {
        let result = try await runProcess(builtProduct("switchboard"), ["demo", "serve", "--port", "0", "--expires-in=\(value)"], timeout: 20)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--expires-in must be at least 10 seconds"))
        #expect(!result.stdout.contains("Demo provider at"))
    }

    @Test("a port it may not use is reported with the system's reason, not as taken")
    func privilegedPort() async throws {
        // Root may listen on port 80: the command then runs as nobody.
        let switchboard = builtProduct("switchboard")
        let arguments = ["demo", "serve", "--port", "80"]
        let result = geteuid() == 0
            ? try await runProcess("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", switchboard] + arguments, timeout: 20)
            : try await runProcess(switchboard, arguments, timeout: 20)
        #expect(result.status == 14, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1:80"))
        #expect(result.stderr.contains(String(cString: strerror(EACCES))), "\(result.stderr)")
        #expect(!result.stdout.contains("taken"))
    }
}
