import DeviceFlow
import SwitchboardCore
import Testing
@testable import switchboard

@Suite("token variables and shell quoting")
struct TokenVariablesTests {
    @Test("each kind's variable; a second provider of one kind, and OpenID Connect issuers, get SWITCHBOARD_TOKEN_<ID>")
    func names() {
        let kinds: [ProviderID: ProviderKind] = [
            "github": .github, "ghe": .github, "gitlab": .gitlab, "google": .google, "microsoft": .microsoft,
            "demo": .demo, "work-sso.v2": .oidc,
        ]
        let names = TokenVariables.names(for: kinds.keys.sorted { $0.rawValue < $1.rawValue }, kind: { kinds[$0] })
        #expect(names == [
            "github": "GH_TOKEN", "ghe": "SWITCHBOARD_TOKEN_GHE", "gitlab": "GITLAB_TOKEN", "google": "GOOGLE_OAUTH_ACCESS_TOKEN",
            "microsoft": "SWITCHBOARD_TOKEN_MICROSOFT", "demo": "SWITCHBOARD_DEMO_TOKEN", "work-sso.v2": "SWITCHBOARD_TOKEN_WORK_SSO_V2",
        ])
        // With no provider called after the kind, the first by id has the well-known name.
        #expect(TokenVariables.names(for: ["b-hub", "a-hub"], kind: { _ in .github }) == ["a-hub": "GH_TOKEN", "b-hub": "SWITCHBOARD_TOKEN_B_HUB"])
        #expect(TokenVariables.generic("Zoë") == "SWITCHBOARD_TOKEN_ZO_")
    }

    @Test("POSIX quoting never writes an empty quoted piece; fish quoting escapes only backslash and quote")
    func quoting() {
        #expect(ShellSyntax.posixQuoted("") == "''")
        #expect(ShellSyntax.posixQuoted("a b") == "'a b'")
        #expect(ShellSyntax.posixQuoted("'") == "\\'")
        #expect(ShellSyntax.posixQuoted("it's $x") == "'it'\\''s $x'")
        #expect(ShellSyntax.posixQuoted("''") == "\\'\\'")
        #expect(ShellSyntax.fishQuoted("it's \\ $x") == "'it\\'s \\\\ $x'")
        #expect(ShellSyntax.fish.set("A", "b") == "set -gx A 'b'")
        #expect(ShellSyntax.fish.unset("A") == "set -e A")
        #expect(ShellSyntax.zsh.set("A", "b") == "export A='b'")
        #expect(ShellSyntax.fromEnvironment(["SHELL": "/usr/bin/fish"]) == .fish)
        #expect(ShellSyntax.fromEnvironment(["SHELL": "/bin/ksh"]) == .sh)
        #expect(ShellSyntax.fromEnvironment([:]) == .sh)
    }
}
