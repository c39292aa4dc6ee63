import Foundation
import GRDB
import Testing
import TestSupport
import Store
import SwitchboardCore
@testable import switchboard

/// Two identities of one provider on the command line: told apart by
/// login or email, their facts in `accounts -v`, and `switch` to an account
/// whose every identity was revoked.
@Suite("identities you can see and trust, on the command line, in this process")
struct IdentitiesCLITests {
    static let work = LinkedIdentity(
        identity: Identity(provider: "github", subject: "2048"), displayName: "Grace Hopper", email: "grace@work.example", login: "grace-work")

    /// Grace with two GitHub identities (`populate`'s, with no login, and a work one), and tokens for the work one.
    @discardableResult
    func graceWithTwo(_ cli: CLI, expiresIn seconds: Double = 52 * 60 + 30) throws -> (ada: AccountID, grace: AccountID) {
        let ids = try cli.populate()
        let database = try AppDatabase(testing: cli.path)
        _ = try database.switchAccount(to: ids.grace, session: SessionKey("setup")!)
        _ = try database.signIn(Self.work, mode: .link, session: SessionKey("setup")!)
        try database.saveCredential(
            TokenSet(accessToken: "gho_SECRETwork", refreshToken: "ghr_SECRETwork", idToken: "eyJ.SECRET.id", scope: "repo read:org",
                     expiresAt: Moment.now().advanced(by: seconds)),
            for: Self.work.identity)
        return ids
    }

    @Test("accounts: two identities of one provider each show their login, else email, else subject; one alone stays short")
    func accountsTellThemApart() async throws {
        let cli = CLI()
        let (_, grace) = try graceWithTwo(cli)
        let result = await cli.run("accounts")
        #expect(result.status == 0, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.contains("\t") && $0.contains("\(grace)\t") })
        // Grace's first GitHub identity has neither login nor email: its subject tells it.
        #expect(line.contains("github ✓ 1024") && line.contains("github ✓ grace-work"), "\(line)")
        #expect(line.contains("microsoft ⚠ expired") && !line.contains("microsoft ⚠ expired grace"), "alone at its provider: \(line)")
        let ada = try #require(result.stdout.split(separator: "\n").first { $0.contains("Ada Lovelace") })
        #expect(ada.hasSuffix("github ✓, google ✓"), "\(ada)")
    }

    @Test("accounts -v: per identity its provider, login, subject, state, token expiry and scopes; never a token")
    func verbose() async throws {
        let cli = CLI()
        try graceWithTwo(cli)
        for flag in ["-v", "--verbose"] {
            let result = await cli.run("accounts", flag)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("    github: login grace-work, subject 2048, ok, expires in 52 min, scopes repo read:org"), "\(result.stdout)")
            #expect(lines.contains("    github: subject 1024, ok, no token stored"), "\(result.stdout)")
            #expect(lines.contains("    microsoft: email grace@navy.example, subject oid-7:tid-1, expired, no token stored"), "\(result.stdout)")
            // Ada's GitHub token is stored with no expiry.
            #expect(lines.contains("    github: email ada@example.org, subject 583231, ok, no expiry given"), "\(result.stdout)")
            #expect(!result.stdout.contains("SECRET"))
        }
    }

    @Test("accounts -v --json: login, tokenStored, expiresAt and scopes join each identity; no secret; without -v the shape is as before")
    func verboseJSON() async throws {
        let cli = CLI()
        let (_, grace) = try graceWithTwo(cli, expiresIn: 3600)
        let result = await cli.run("accounts", "-v", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("SECRET"))
        let accounts = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        let graceJSON = try #require(accounts.first { ($0["id"] as? NSNumber)?.int64Value == grace.rawValue })
        let identities = try #require(graceJSON["identities"] as? [[String: Any]])
        for identity in identities {
            #expect(Set(identity.keys) == ["provider", "subject", "name", "email", "state", "login", "tokenStored", "expiresAt", "scopes"])
        }
        let work = try #require(identities.first { $0["subject"] as? String == "2048" })
        #expect(work["login"] as? String == "grace-work" && work["tokenStored"] as? Bool == true)
        #expect(work["scopes"] as? [String] == ["repo", "read:org"])
        let expiresAt = try #require(work["expiresAt"] as? String)
        let expiry = try #require(ISO8601DateFormatter().date(from: expiresAt))
        #expect(abs(expiry.timeIntervalSinceNow - 3600) < 120)
        let bare = try #require(identities.first { $0["subject"] as? String == "1024" })
        #expect(bare["tokenStored"] as? Bool == false && bare["expiresAt"] is NSNull && bare["login"] is NSNull)
        #expect(bare["scopes"] as? [String] == [])
        // Without -v: the five keys, as before.
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(await cli.run("accounts", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(plain.allSatisfy { (($0["identities"] as? [[String: Any]]) ?? []).allSatisfy { Set($0.keys) == ["provider", "subject", "name", "email", "state"] } })
    }

    @Test("switch to an account whose every identity was revoked: switches, and warns on standard error with the command to sign in again")
    func switchToRevoked() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        let database = try AppDatabase(testing: cli.path)
        _ = try database.recordCheck(Sample.adaGitHub.identity, state: .revoked)
        let partly = await cli.run("switch", String(ada.rawValue))
        #expect(partly.status == 0 && partly.stderr.isEmpty, "google still works: no warning. \(partly.stderr)")
        _ = try database.recordCheck(Sample.adaGoogle.identity, state: .revoked)
        let result = await cli.run("switch", String(ada.rawValue))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Switched to Ada Lovelace"))
        #expect(result.stderr.contains("warning: every identity of Ada Lovelace was revoked"), "\(result.stderr)")
        #expect(result.stderr.contains("github (github:583231)") && result.stderr.contains("google (google:"), "\(result.stderr)")
        #expect(result.stderr.contains("  switchboard sign-in github\n") && result.stderr.contains("  switchboard sign-in google\n"), "\(result.stderr)")
        #expect(try database.active(in: SessionKey("tty-test")!).id == ada)
        // A session named on the command line is named in the command too; --json output stays JSON.
        let named = await cli.run("switch", String(ada.rawValue), "--session", "lab 2", "--json")
        #expect(named.status == 0 && named.stdout.hasPrefix("{"))
        #expect(named.stderr.contains("switchboard sign-in github --session 'lab 2'"), "\(named.stderr)")
    }

    @Test("the sign-in command is quoted for the shell")
    func quoting() {
        #expect(RevokedWarning.shellQuoted("demo") == "demo")
        #expect(RevokedWarning.shellQuoted("it's") == "'it'\\''s'")
        #expect(RevokedWarning.shellQuoted("a b;rm") == "'a b;rm'")
    }
}
