import Foundation
import Testing
import TestSupport
@testable import switchboard

/// `switchboard` as a login shell: with no arguments it is a station and
/// runs the kiosk; asked to run a command, as sshd and su ask a shell, it
/// refuses and runs nothing.
@Suite("switchboard as a login shell")
struct LoginShellTests {
    @Test("a login shell (a \"-\" before the name) with no arguments runs the kiosk; any other name runs what it is given")
    func kioskForALoginShell() {
        #expect(Invocation(["-switchboard"]) == .arguments(["kiosk"]))
        #expect(Invocation(["-/usr/local/bin/switchboard"]) == .arguments(["kiosk"]))
        #expect(Invocation(["switchboard"]) == .arguments([]))
        #expect(Invocation(["/usr/local/bin/switchboard", "status", "--json"]) == .arguments(["status", "--json"]))
        #expect(Invocation([]) == .arguments([]))
    }

    @Test("a login shell with arguments, and -c however it is started, are refused",
          arguments: [
            ["-switchboard", "-c", "bash"], ["-switchboard", "kiosk"], ["-switchboard", "--help"],
            ["switchboard", "-c", "echo hi"], ["/usr/local/bin/switchboard", "-c", "scp -t /tmp"],
          ])
    func refused(argv: [String]) {
        guard case .refused(let reason) = Invocation(argv) else {
            Issue.record("\(argv) was not refused")
            return
        }
        #expect(reason.contains("never"), "\(reason)")
    }

    @Test("-switchboard -c COMMAND (sshd and su's login) and switchboard -c COMMAND exit 64 and run nothing",
          arguments: [true, false])
    func runsNoCommand(asLoginShell: Bool) async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let witness = folder.file("ran")
        let name = asLoginShell ? "-switchboard" : "switchboard"
        // bash's `exec -a` sets the program's name, as login(1) and sshd do.
        let result = try await runProcess(
            "/bin/bash", ["-c", #"exec -a "$1" "$0" -c "echo hi; touch $2""#, builtProduct("switchboard"), name, witness],
            environment: ["HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("share")],
            timeout: 60)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(!result.stdout.contains("hi"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: witness), "the command ran")
        #expect(result.stderr.contains("never"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("share")), "nothing was opened")
    }
}
