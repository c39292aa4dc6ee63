import Foundation
import Testing
import TestSupport

/// Two terminals on one machine: the chooser open in one (tmux), the
/// command line in another. What the second does shows in the first
/// without a key pressed.
@Suite("live across terminals", .enabled(if: Tmux.isInstalled, "tmux is not installed (.ci/run installs it)"))
struct LiveAcrossTerminalsTests {
    @Test("a sign-in approved in another terminal adds the account to the open chooser; a switch in its session changes the status bar")
    func otherTerminalsShow() async throws {
        // The provider a person would have running in a third terminal, asking for polls a second apart.
        let demo = try await DemoServe()
        defer { demo.stop() }
        let chooser = try ChooserFixture(demo: demo)
        defer { chooser.remove() }
        try await withTmux(builtProduct("switchboard"), environment: chooser.environment) { tmux in
            var screen = try await tmux.waitFor(text: "┌ Accounts")
            #expect(statusBar(screen).contains("○ Anonymous"))

            // Another terminal, another session: sign in with Demo and approve it.
            var other = chooser.cliEnvironment
            other["SWITCHBOARD_SESSION"] = "second-terminal"
            let signIn = try LiveProcess(builtProduct("switchboard"), ["sign-in", "demo", "--json"], environment: other)
            defer { signIn.terminate() }
            let code = try #require(await signIn.line(containing: #""event":"code""#), "\(signIn.stderr)")
            let userCode = try #require((try JSONSerialization.jsonObject(with: Data(code.utf8)) as? [String: Any])?["user_code"] as? String)
            let approve = try await runProcess(
                builtProduct("switchboard"), ["demo", "approve", userCode, "--as", "grace", "--server", "http://127.0.0.1:\(chooser.port)"],
                environment: other)
            #expect(approve.status == 0, "\(approve.stderr)")
            #expect(await signIn.exitStatus() == 0)

            screen = try await tmux.waitUntil("Grace appears in the accounts pane", timeout: 5) { screen in
                accountsPane(screen).contains { $0.contains("Grace Hopper") }
            }
            #expect(statusBar(screen).contains("○ Anonymous"), "another session's sign-in leaves this one as it was")

            // A switch in the chooser's own session, from another shell.
            let switched = try await runProcess(builtProduct("switchboard"), ["switch", "Grace Hopper"], environment: chooser.cliEnvironment)
            #expect(switched.status == 0, "\(switched.stderr)")
            screen = try await tmux.waitUntil("the status bar shows Grace", timeout: 5) { statusBar($0).contains("● Grace Hopper") }
            #expect(topBorder(screen).contains("Tonight for Grace Hopper"))

            try await tmux.press("q")
            #expect(try await tmux.exitStatus() == 0)
        }
    }
}
