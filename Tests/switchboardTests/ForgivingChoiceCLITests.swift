import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport
@testable import switchboard

/// Choosing forgives: a word or its start, `provider:login`, `switch -`,
/// and a shell whose variables name someone else is told so.
@Suite("switchboard switch: forgiving choice")
struct ForgivingChoiceCLITests {
    /// Ada Lovelace and Grace Hopper (populated), and Grace Brewster at GitLab as `gbrewster`.
    private func roster() throws -> (cli: CLI, brewster: AccountID) {
        let cli = CLI()
        _ = try cli.populate()
        let database = try AppDatabase(testing: cli.path)
        let brewster = LinkedIdentity(
            identity: Identity(provider: "gitlab", subject: "77"), displayName: "Grace Brewster", email: "gb@lab.example", login: "GBrewster")
        let ids = try Sample.signIn([brewster], into: database, session: SessionKey("setup")!)
        return (cli, ids[0])
    }

    @Test("switch takes a word of a name or its start, an email's start, provider:login; several matches are listed with their ids (3)")
    func prefixes() async throws {
        let (cli, brewster) = try roster()
        let ambiguous = await cli.run("switch", "gra")
        #expect(ambiguous.status == 3)
        #expect(ambiguous.stderr.contains("Grace Hopper") && ambiguous.stderr.contains("\(brewster) Grace Brewster <gb@lab.example>"))
        let hopper = await cli.run("switch", "hop")
        #expect(hopper.status == 0 && hopper.stdout.contains("Switched to Grace Hopper"))
        #expect(await cli.run("switch", "Lov").stdout.contains("Switched to Ada Lovelace"))
        #expect(await cli.run("switch", "gb@").stdout.contains("Switched to Grace Brewster"))
        #expect(await cli.run("switch", "ADA@EXAMPLE").stdout.contains("Switched to Ada Lovelace"))
        // A login, in any case, at its provider only.
        #expect(await cli.run("switch", "gitlab:gbrewster").stdout.contains("Switched to Grace Brewster"))
        #expect(await cli.run("switch", "github:gbrewster").status == 2)
        // LIKE's wildcards are letters here, not patterns.
        #expect(await cli.run("switch", "%").status == 2)
        #expect(await cli.run("switch", "_race").status == 2)
        // An exact name still wins over the words of others.
        #expect(await cli.run("switch", "grace hopper").stdout.contains("Switched to Grace Hopper"))
    }

    @Test("switch - goes back to the account before, and again to the one after; to nobody when it was nobody; with nothing before it is not found (2)")
    func back() async throws {
        let (cli, _) = try roster()
        let fresh = await cli.run("switch", "-", session: "tty-back")
        #expect(fresh.status == 2 && fresh.stderr.contains("no account before"))
        #expect(await cli.run("switch", "ada", session: "tty-back").status == 0)
        #expect(await cli.run("switch", "hopper", session: "tty-back").status == 0)
        #expect(await cli.run("switch", "-", session: "tty-back").stdout.contains("Switched to Ada Lovelace"))
        #expect(await cli.run("switch", "-", session: "tty-back").stdout.contains("Switched to Grace Hopper"))
        #expect(await cli.run("sign-out", session: "tty-back").status == 0)
        #expect(await cli.run("switch", "-", session: "tty-back").stdout.contains("Switched to Grace Hopper"))
        // Back from Grace to the sign-out before her: nobody.
        let nobody = await cli.run("switch", "-", session: "tty-back")
        #expect(nobody.status == 0 && nobody.stdout.contains("Switched to Anonymous"))
        // Another session's history is its own.
        #expect(await cli.run("switch", "-", session: "tty-other").status == 2)
    }

    @Test("after a switch, a shell without the hook whose GIT_AUTHOR_EMAIL or SWITCHBOARD_ACCOUNT names someone else is warned once; with the hook, or matching, it is not")
    func staleShell() async throws {
        let (cli, _) = try roster()
        let stale = await cli.run("switch", "hopper", environment: ["GIT_AUTHOR_EMAIL": "ada@example.org", "SHELL": "/bin/zsh"])
        #expect(stale.status == 0)
        let warnings = stale.stderr.split(separator: "\n").filter { $0.contains("warning") }
        #expect(warnings.count == 1)
        #expect(stale.stderr.contains("GIT_AUTHOR_EMAIL=ada@example.org") && stale.stderr.contains("switchboard hook zsh"))
        let pinned = await cli.run("switch", "hopper", environment: ["SWITCHBOARD_ACCOUNT": "1"])
        #expect(pinned.stderr.contains("SWITCHBOARD_ACCOUNT=1"))
        // The hook's own value gives way: nothing stale.
        let hooked = await cli.run(
            "switch", "hopper", environment: ["GIT_AUTHOR_EMAIL": "ada@example.org", "SWITCHBOARD_HOOK": "bash"])
        #expect(!hooked.stderr.contains("warning"))
        let matching = await cli.run("switch", "ada", environment: ["GIT_AUTHOR_EMAIL": "ada@example.org"])
        #expect(!matching.stderr.contains("warning"))
    }

    @Test("completion offers the names, emails and provider:logins that start with the word typed, any case")
    func completion() throws {
        let (cli, _) = try roster()
        let io = TestIO(environment: cli.environment()).io
        let grace = AccountCompletion.names(startingWith: "gr", io: io)
        #expect(Set(grace) == ["Grace Hopper", "Grace Brewster", "grace@navy.example"], "\(grace)")
        #expect(AccountCompletion.names(startingWith: "GITLAB:", io: io) == ["gitlab:GBrewster"])
        #expect(AccountCompletion.names(startingWith: "", io: io).contains("Ada Lovelace"))
        #expect(AccountCompletion.names(startingWith: "zz", io: io).isEmpty)
        // No store where it points: nothing offered, nothing said.
        let nowhere = TestIO(environment: ["SWITCHBOARD_DATABASE": "/nonexistent/folder/db.sqlite"]).io
        #expect(AccountCompletion.names(startingWith: "", io: nowhere).isEmpty)
    }

    @Test("an identity recorded as revoked gets no token from token, env --tokens or exec: 17, with how to sign in again, and the command is not run")
    func revokedIdentity() async throws {
        let (cli, _) = try roster()
        let database = try AppDatabase(testing: cli.path)
        #expect(await cli.run("switch", "ada").status == 0)
        #expect(await cli.run("token", "github").stdout == "gho_SECRETaccess\n")
        _ = try database.recordCheck(Sample.adaGitHub.identity, state: .revoked)
        for arguments in [["token", "github"], ["env", "--tokens", "--provider", "github"], ["exec", "--provider", "github", "--", "/bin/echo", "ran"]] {
            let refused = await TestIO(environment: cli.environment()).run(arguments)
            #expect(refused.status == 17, "\(arguments): \(refused.stderr)")
            #expect(!refused.stdout.contains("gho_SECRET") && !refused.stdout.contains("ran"), "\(arguments): \(refused.stdout)")
            #expect(refused.stderr.contains("github:583231 is recorded as revoked") && refused.stderr.contains("switchboard sign-in github"), "\(refused.stderr)")
        }
        let status = await cli.run("status")
        #expect(status.stdout.contains("github revoked: sign in again"), "\(status.stdout)")
    }

    @Test("two identities at one provider: token and disconnect name both and exit 3 for the provider alone; provider:login picks one")
    func twoAtOneProvider() async throws {
        let cli = CLI()
        let database = try AppDatabase(testing: cli.path)
        let session = SessionKey("tty-test")!
        let home = LinkedIdentity(identity: Identity(provider: "github", subject: "11"), displayName: "Ada Lovelace", email: "ada@home.example", login: "ada")
        let work = LinkedIdentity(identity: Identity(provider: "github", subject: "22"), displayName: "Ada Lovelace", email: "ada@work.example", login: "ada-work")
        _ = try database.signIn(home, mode: .signIn, session: session, tokens: TokenSet(accessToken: "tok-home"))
        _ = try database.signIn(work, mode: .link, session: session, tokens: TokenSet(accessToken: "tok-work"))
        let either = await cli.run("token", "github")
        #expect(either.status == 3 && either.stderr.contains("name one as github:ada or github:ada-work"), "\(either.stderr)")
        #expect(await cli.run("token", "github:ada-work").stdout == "tok-work\n")
        #expect(await cli.run("token", "github:11").stdout == "tok-home\n")
        let disconnect = await cli.run("disconnect", "github")
        #expect(disconnect.status == 3 && disconnect.stderr.contains("github:11, github:22"), "\(disconnect.stderr)")
        let gone = await cli.run("disconnect", "github:ada-work")
        #expect(gone.status == 0 && gone.stdout.contains("Disconnected github:22"), "\(gone.stderr)")
        #expect(await cli.run("token", "github").stdout == "tok-home\n")
        let unknown = await cli.run("disconnect", "gitlab:9")
        #expect(unknown.status == 2 && unknown.stderr.contains("switchboard accounts -v"), "\(unknown.stderr)")
    }
}
