import Foundation
import GRDB
import Testing
import TestSupport
import Store
import SwitchboardCore

/// `switchboard` against a database in a temporary folder: in this process
/// (`run`, `start`, in InProcess.swift), or the built program (`spawn`).
final class CLI: Sendable {
    let folder = TemporaryFolder()
    var path: String { folder.file("switchboard.sqlite") }

    deinit { folder.remove() }

    /// Runs the built `switchboard` as a process.
    func spawn(_ arguments: String..., session: String = "tty-test", environment: [String: String] = [:], input: String? = nil) async throws -> ProcessResult {
        try await runProcess(builtProduct("switchboard"), arguments,
                       environment: ["SWITCHBOARD_DATABASE": path, "SWITCHBOARD_SESSION": session].merging(environment) { $1 },
                       input: input)
    }

    /// Ada (github + google, with a token stored) and Grace (github, microsoft expired).
    func populate() throws -> (ada: AccountID, grace: AccountID) {
        let database = try AppDatabase(testing: path)
        let session = SessionKey("setup")!
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: database, session: session)
        _ = try database.switchAccount(to: ids[0], session: session)
        _ = try database.signIn(Sample.adaGoogle, mode: .link, session: session)
        _ = try database.switchAccount(to: ids[1], session: session)
        _ = try database.signIn(Sample.graceMicrosoft, mode: .link, session: session)
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO credential (provider, subject, accessToken, refreshToken, updatedAt) VALUES ('github', '583231', 'gho_SECRETaccess', 'ghr_SECRETrefresh', 0)")
        }
        return (ids[0], ids[1])
    }
}

private func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

@Suite("switchboard CLI, in this process")
struct CLITests {
    @Test("a fresh database: accounts --json prints [] and status --json shows active null")
    func fresh() async throws {
        let cli = CLI()
        let accounts = await cli.run("accounts", "--json")
        #expect(accounts.status == 0)
        #expect(accounts.stdout == "[]\n")
        let status = await cli.run("status", "--json")
        #expect(status.status == 0)
        let object = try #require(try json(status.stdout) as? [String: Any])
        #expect(Set(object.keys) == ["session", "active", "source", "chosenBy"])
        #expect(object["source"] as? String == "terminal" && object["chosenBy"] is NSNull)
        #expect(object["session"] as? String == "tty-test")
        #expect(object["active"] is NSNull)
    }

    @Test("accounts --json: exact shape, one active account per session")
    func accountsShape() async throws {
        let cli = CLI()
        let (ada, grace) = try cli.populate()
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
        let result = await cli.run("accounts", "--json")
        #expect(result.status == 0)
        let accounts = try #require(try json(result.stdout) as? [[String: Any]])
        #expect(accounts.count == 2)
        for account in accounts {
            #expect(Set(account.keys) == ["id", "name", "active", "identities", "pin"])
            #expect(account["pin"] as? Bool == false)
            for identity in try #require(account["identities"] as? [[String: Any]]) {
                #expect(Set(identity.keys) == ["provider", "subject", "name", "email", "state"])
            }
        }
        let byID = Dictionary(uniqueKeysWithValues: accounts.map { (($0["id"] as! NSNumber).int64Value, $0) })
        #expect(byID[ada.rawValue]?["active"] as? Bool == true)
        #expect(byID[grace.rawValue]?["active"] as? Bool == false)
        let graceIdentities = try #require(byID[grace.rawValue]?["identities"] as? [[String: Any]])
        #expect(graceIdentities.map { $0["provider"] as? String } == ["github", "microsoft"])
        #expect(graceIdentities[0]["email"] is NSNull)
        #expect(graceIdentities[1]["state"] as? String == "expired")
        #expect(byID[ada.rawValue]?["name"] as? String == "Ada Lovelace")
    }

    @Test("status --json shows the active account with its identities")
    func statusShape() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        #expect(await cli.run("switch", "github:583231").status == 0)
        let object = try #require(try json(await cli.run("status", "--json").stdout) as? [String: Any])
        let active = try #require(object["active"] as? [String: Any])
        #expect(Set(active.keys) == ["id", "name", "identities"])
        #expect((active["id"] as? NSNumber)?.int64Value == ada.rawValue)
        #expect((active["identities"] as? [[String: Any]])?.count == 2)
    }

    @Test("switch and sign-out act in one session only")
    func sessions() async throws {
        let cli = CLI()
        let (ada, grace) = try cli.populate()
        #expect(await cli.run("switch", String(ada.rawValue), session: "left").status == 0)
        #expect(await cli.run("switch", "--session", "right", String(grace.rawValue)).status == 0)
        let out = await cli.run("sign-out", "--json", session: "left")
        #expect(out.status == 0)
        #expect((try json(out.stdout) as? [String: Any])?["active"] is NSNull)
        let right = try #require(try json(await cli.run("status", "--json", session: "right").stdout) as? [String: Any])
        #expect(((right["active"] as? [String: Any])?["id"] as? NSNumber)?.int64Value == grace.rawValue)
    }

    @Test("disconnect --json reports what went and who is active")
    func disconnect() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        _ = await cli.run("switch", String(ada.rawValue))
        let result = await cli.run("disconnect", "google", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try json(result.stdout) as? [String: Any])
        #expect(object["disconnected"] as? String == Sample.adaGoogle.identity.description)
        #expect(object["accountRemoved"] as? Bool == false)
        let status = try #require(object["status"] as? [String: Any])
        #expect(((status["active"] as? [String: Any])?["identities"] as? [Any])?.count == 1)
    }

    @Test("exit statuses: not found 2, ambiguous 3, usage 64, store 5; each with a message and no change")
    func exitStatuses() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let database = try AppDatabase(testing: cli.path)
        // Two accounts both called Grace Hopper make the name ambiguous.
        try Sample.signIn([LinkedIdentity(identity: Identity(provider: "gitlab", subject: "5"), displayName: "Grace Hopper")], into: database, session: SessionKey("setup")!)
        let before = try database.eventCount()

        let missing = await cli.run("switch", "Nobody")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("\"Nobody\""))
        let ambiguous = await cli.run("switch", "grace hopper")
        #expect(ambiguous.status == 3)
        #expect(ambiguous.stderr.contains("matches several accounts"))
        #expect(await cli.run("disconnect", "github:0").status == 2)
        // No account named, not on a terminal: the accounts are listed.
        let listed = await cli.run("switch")
        #expect(listed.status == 0 && listed.stdout.contains("Grace Hopper"))
        #expect(await cli.run("accounts", "--bogus").status == 64)
        let badSession = await cli.run("status", session: "a\u{1B}[2Jb")
        #expect(badSession.status == 64)
        #expect(badSession.stderr.contains("invalid session name") && !badSession.stderr.contains("\u{1B}"))
        #expect(try database.eventCount() == before)

        let garbage = cli.folder.file("garbage.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: garbage))
        let damaged = await cli.run("accounts", "--database", garbage)
        #expect(damaged.status == 5)
        #expect(damaged.stderr.contains(garbage))
        #expect(FileManager.default.contents(atPath: garbage) == Data(repeating: 0x41, count: 4096))
    }

    @Test("no token ever reaches the output of any command")
    func noSecrets() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        let outputs = await [
            cli.run("accounts"), cli.run("accounts", "--json"), cli.run("status", "--json"),
            cli.run("switch", String(ada.rawValue), "--json"), cli.run("status"),
            cli.run("disconnect", "github:583231", "--json"),
        ]
        for output in outputs {
            #expect(output.status == 0, "\(output.stderr)")
            #expect(!(output.stdout + output.stderr).contains("SECRET"))
        }
    }

    @Test("human output strips escape sequences from provider names")
    func hostileNames() async throws {
        let cli = CLI()
        let database = try AppDatabase(testing: cli.path)
        let hostile = LinkedIdentity(identity: Identity(provider: "demo", subject: "x"), displayName: "Eve\u{1B}]52;c;ZXZpbA==\u{7}\u{1B}[2J")
        try Sample.signIn([hostile], into: database, session: SessionKey("tty-test")!)
        let output = await cli.run("accounts")
        #expect(!output.stdout.contains("\u{1B}"))
        #expect(output.stdout.contains("Eve" + String(repeating: " ", count: 17) + "  demo"))  // the sequences went whole, not only their ESC
        #expect(!output.stdout.contains("52;c;"))
    }

    @Test("the built program: statuses, standard output and standard error as a shell sees them")
    func builtProgram() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let switched = try await cli.spawn("switch", "Ada Lovelace", "--json")
        #expect(switched.status == 0 && switched.stdout.hasPrefix("{\"active\":{") && switched.stderr.isEmpty, "\(switched.stderr)")
        let missing = try await cli.spawn("switch", "Nobody")
        #expect(missing.status == 2 && missing.stdout.isEmpty && missing.stderr.hasPrefix("switchboard: ") && missing.stderr.contains("\"Nobody\""))
        let usage = try await cli.spawn("accounts", "--bogus")
        #expect(usage.status == 64 && usage.stdout.isEmpty && usage.stderr.contains("--bogus"))
        let help = try await cli.spawn("--help")
        #expect(help.status == 0 && help.stdout.contains("Exit statuses:") && help.stderr.isEmpty)
        let garbage = cli.folder.file("garbage.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: garbage))
        #expect(try await cli.spawn("accounts", "--database", garbage).status == 5)
        let nobody = try await cli.spawn("token", "github", session: "elsewhere")
        #expect(nobody.status == 16 && nobody.stdout.isEmpty)
    }
}
