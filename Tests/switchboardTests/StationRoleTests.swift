import Foundation
import PINHash
import Postgres
import PostgresServer
import Services
import Store
import SwitchboardCore
import Testing
import TestSupport

/// A fleet whose station lab-3 has a role of its own (`fleet add`), made
/// as docs/FLEET.md says: an owner that is no superuser (it may create
/// roles) owns the schema, migrates it, then adds the station.
private struct OwnRoleFleet {
    let fleet: Fleet
    /// The owner's URL (its role trusted from loopback, as the test server's are).
    let ownerURL: String
    /// lab-3's role.
    let role: String
    /// The file `fleet add` wrote the role's `~/.pgpass` line to.
    let pgpass: String
    /// What `fleet add` printed.
    let added: ProcessResult

    init(role: String? = nil) async throws {
        fleet = try Fleet()
        let schema = String(fleet.url.split(separator: "%3D").last ?? "")
        let owner = "own_" + schema.dropFirst(2).prefix(20)
        let admin = try PGConnection.connect(fleet.url)
        let database = try #require(try admin.query("SELECT current_database()").text(0, 0))
        // The database's pgcrypto is made once, by whichever suite comes first; this owner may use it.
        try admin.execute("BEGIN; SELECT pg_advisory_xact_lock(hashtext('switchboard: extensions')); CREATE EXTENSION IF NOT EXISTS pgcrypto; COMMIT")
        let crypto = try #require(try admin.query(
            "SELECT quote_ident(nspname) FROM pg_extension JOIN pg_namespace ON pg_namespace.oid = extnamespace WHERE extname = 'pgcrypto'").text(0, 0))
        // Grants on one database at once clash ("tuple concurrently updated"): under the lock `fleet add` takes too.
        try admin.execute("""
            BEGIN;
            SELECT pg_advisory_xact_lock(hashtext('switchboard: station roles'));
            CREATE ROLE \(owner) LOGIN CREATEROLE;
            GRANT CONNECT ON DATABASE \(database) TO \(owner);
            ALTER SCHEMA \(schema) OWNER TO \(owner);
            GRANT USAGE ON SCHEMA \(crypto) TO \(owner);
            COMMIT
            """)
        ownerURL = fleet.url.replacingOccurrences(of: "//switchboard@", with: "//\(owner)@")
        let migrated = await fleet.run("store", "migrate", "--store", ownerURL, at: "lab-3")
        #expect(migrated.status == 0, "\(migrated.stderr)")
        self.role = role ?? "st_" + schema.dropFirst(2).prefix(20)
        pgpass = fleet.folder.file("lab-3.pgpass")
        added = await fleet.run("fleet", "add", "lab-3", "--role", self.role, "--pgpass", pgpass, "--store", ownerURL, at: "lab-3")
        #expect(added.status == 0, "\(added.stderr)")
    }

    /// `switchboard` as the owner, at lab-4 (whose name no role has).
    func asOwner(_ arguments: String...) async -> ProcessResult {
        await fleet.run(arguments + ["--store", ownerURL], at: "lab-4")
    }

    /// The store's URL as lab-3 gives it: its role, its password from the `~/.pgpass` file.
    var stationURL: String {
        fleet.url.replacingOccurrences(of: "//switchboard@", with: "//\(role)@") + "&passfile=" + pgpass
    }

    /// lab-3's own config.toml, with its role's URL.
    func useStationRole(at station: String = "lab-3") throws {
        try "[store]\nurl = \"\(stationURL)\"\nstation = \"\(station)\"\n"
            .write(toFile: fleet.folder.file("\(station).toml"), atomically: true, encoding: .utf8)
    }
}

@Suite("a station's own role: the server keeps it to its own station")
struct StationRoleTests {
    @Test("fleet add makes a role whose password goes only to a private file; with it a station connects, by SCRAM")
    func addPrintsNoPassword() async throws {
        let setup = try await OwnRoleFleet(role: ThrowawayCluster.stationPasswordRole)
        let attributes = try FileManager.default.attributesOfItem(atPath: setup.pgpass)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let line = try String(contentsOfFile: setup.pgpass, encoding: .utf8)
        let fields = line.dropLast().split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        #expect(fields.count == 5 && fields[0] == "*" && fields[1] == "*" && fields[3] == setup.role, "\(fields.prefix(4))")
        let password = try #require(fields.last)
        #expect(password.count == 32)
        #expect(!setup.added.stdout.contains(password) && !setup.added.stderr.contains(password))
        #expect(setup.added.stdout.contains("station = \"lab-3\"") && setup.added.stdout.contains("url = \"postgresql://\(setup.role)@127.0.0.1:"),
                "\(setup.added.stdout)")
        // The server has a SCRAM verifier; it never saw the password.
        let admin = try PGConnection.connect(setup.fleet.url)
        let stored = try #require(try admin.query("SELECT rolpassword FROM pg_authid WHERE rolname = $1", [PGParameter(type: PGType.text, text: setup.role)]).text(0, 0))
        #expect(stored.hasPrefix("SCRAM-SHA-256$") && !stored.contains(password))
        let station = try PGConnection.connect(setup.stationURL)
        #expect(try station.query("SELECT switchboard_station()").text(0, 0) == "lab-3")
        let wrong = setup.fleet.url.replacingOccurrences(of: "//switchboard@", with: "//\(setup.role)@")
        #expect(throws: PGError.self, "no password, no connection") { try PGConnection.connect(wrong) }

        // Again for the same station, or into the same file: refused, nothing made or overwritten.
        let again = await setup.asOwner("fleet", "add", "lab-3", "--role", "other_\(setup.role)", "--pgpass", setup.fleet.folder.file("again"))
        #expect(again.status == 4 && again.stderr.contains("station lab-3 has a role already"), "\(again)")
        #expect(!FileManager.default.fileExists(atPath: setup.fleet.folder.file("again")))
        let sameFile = await setup.asOwner("fleet", "add", "lab-4", "--pgpass", setup.pgpass)
        #expect(sameFile.status == 64 && sameFile.stderr.contains("it exists already"), "\(sameFile)")
        #expect(try String(contentsOfFile: setup.pgpass, encoding: .utf8) == line)
        let slash = await setup.asOwner("fleet", "add", "lab/5", "--pgpass", setup.fleet.folder.file("slash"))
        #expect(slash.status == 64 && slash.stderr.contains("\"/\""), "\(slash)")

        // Someone signed in there: removing the station signs them out, saying why.
        let owner = try setup.fleet.database()
        _ = try Sample.signIn([Sample.adaGitHub], into: owner, session: SessionKey("lab-3/tty1")!)
        // Whatever the role made meanwhile (a large object it owns) does not keep it from being removed.
        let doomed = try PGConnection.connect(setup.stationURL)
        _ = try doomed.query("SELECT lo_create(0)")
        let roles = await setup.asOwner("fleet", "roles")
        #expect(roles.status == 0 && roles.stdout.contains("lab-3    \(setup.role)"), "\(roles)")
        let removed = await setup.asOwner("fleet", "remove", "lab-3")
        #expect(removed.status == 0, "\(removed)")
        #expect(throws: PGError.self, "a removed station's role connects no more") { try PGConnection.connect(setup.stationURL) }
        #expect(throws: PGError.self, "and its open connection was ended") { try doomed.query("SELECT 1") }
        #expect(try owner.active(in: SessionKey("lab-3/tty1")!) == .anonymous)
        #expect(try owner.events(LogQuery(station: "lab-3")).last.map { EventWording.what($0) } == "signed out (station removed)")
        #expect(await setup.asOwner("fleet", "remove", "lab-3").status == 2)
    }

    @Test("with its own role's password and SQL, a station reads and changes only its own sessions, tokens of what it has active, its own rows")
    func rowsOfItsOwn() async throws {
        let setup = try await OwnRoleFleet()
        let owner = try setup.fleet.database()
        // Ada is active at lab-4, Grace at lab-3 (signed in there by the owner's tools).
        _ = try owner.signIn(Sample.adaGitHub, mode: .signIn, session: SessionKey("lab-4/tty1")!, tokens: TokenSet(accessToken: "gho-ada-secret"))
        _ = try owner.signIn(Sample.graceGitHub, mode: .signIn, session: SessionKey("lab-3/tty1")!, tokens: TokenSet(accessToken: "gho-grace"))
        let station = try PGConnection.connect(setup.stationURL)
        func column(_ sql: String) throws -> [String] {
            let result = try station.query(sql)
            return (0..<result.rowCount).compactMap { result.text($0, 0) }
        }
        #expect(try column("SELECT key FROM session") == ["lab-3/tty1"])
        #expect(try column("SELECT subject FROM credential") == [Sample.graceGitHub.identity.subject], "of token sets, only what it has active")
        #expect(try column("SELECT token_access FROM switchboard_tokens('github', '\(Sample.graceGitHub.identity.subject)')") == ["gho-grace"])
        #expect(try column("SELECT token_access FROM switchboard_tokens('github', '\(Sample.adaGitHub.identity.subject)')").isEmpty,
                "nor another station's person's tokens through the owner's function")
        // Sealed in the table: not even a role that may read every column sees a token.
        let admin = try PGConnection.connect(setup.fleet.url)
        let sealed = try admin.query("SELECT accessToken FROM credential ORDER BY subject")
        #expect(sealed.rowCount == 2)
        for row in 0..<sealed.rowCount {
            let text = try #require(sealed.text(row, 0))
            #expect(!text.contains("gho-") && text.count > 40, "\(text)")
        }
        // Another station's terminal: not switched, not made, no event in its name.
        #expect(try station.query("UPDATE session SET accountId = NULL WHERE key = 'lab-4/tty1'").affectedRows == 0)
        for (statement, what) in [
            ("INSERT INTO session (key, accountId, updatedAt) VALUES ('lab-4/tty9', NULL, now())", "no session of another station"),
            ("INSERT INTO session (key, accountId, updatedAt) VALUES ('work', NULL, now())", "nor a named one outside the station"),
            ("INSERT INTO event (at, session, kind, detail) VALUES (now(), 'lab-4/tty1', 'signOut', '{}')", "no event of another's session"),
            ("INSERT INTO station (station, terminal, session, version, startedAt, heartbeatAt, heartbeatSeconds) "
                + "VALUES ('lab-4', 'tty2', 'lab-4/tty2', '1', now(), now(), 30)", "no row of another station"),
            ("SELECT accessToken FROM credential", "no token column, sealed or not"),
            ("SELECT * FROM switchboard_token_key", "no key"),
            ("SELECT switchboard_unseal(accessToken) FROM credential", "no unsealing"),
            ("UPDATE event SET kind = 'x'", "no event changed"),
            ("DELETE FROM event", "nor deleted"),
        ] {
            #expect(throws: PGError.self, "\(what)") { try station.execute(statement) }
        }
        // Its own events: stamped with the server's time and its role, whatever it says.
        let stamped = try station.query(
            "INSERT INTO event (at, session, kind, detail) VALUES ('2001-01-01', 'lab-3/tty1', 'switch', '{}') RETURNING at > now() - interval '1 hour', origin")
        #expect(stamped.text(0, 0) == "t" && stamped.text(0, 1) == setup.role)
        #expect(try admin.query("SELECT accountId FROM session WHERE key = 'lab-4/tty1'").text(0, 0) != nil, "Ada is still active at lab-4")
        // An event of no session it appends reads as its role's in the log, not as anybody's.
        try station.execute("INSERT INTO event (at, session, kind, accountId, detail) VALUES (now(), NULL, 'signOut', NULL, '{\"reason\":\"operator\"}')")
        let log = await setup.asOwner("log", "--limit", "1")
        #expect(log.stdout.contains("  - (\(setup.role))  "), "\(log.stdout)")
        let json = await setup.asOwner("log", "--limit", "1", "--json")
        #expect(json.stdout.contains("\"origin\":\"\(setup.role)\""), "\(json.stdout)")
    }

    @Test("a station's role makes a person with a PIN active, moves or removes them, or stores their tokens only with the PIN or where it has them active")
    func peopleItMayNotTake() async throws {
        let setup = try await OwnRoleFleet()
        let owner = try setup.fleet.database()
        // Ada, with a PIN, is active at lab-4; Grace at lab-3; Alan, with no PIN, nowhere.
        guard case .completed(let ada, _, _, _, _) = try owner.signIn(
            Sample.adaGitHub, mode: .signIn, session: SessionKey("lab-4/tty1")!, tokens: TokenSet(accessToken: "gho-ada-secret"))
        else { Issue.record("no Ada"); return }
        try owner.setPIN("2468", for: .account(ada.id), proof: nil)
        guard case .completed(let grace, _, _, _, _) = try owner.signIn(
            Sample.graceGitHub, mode: .signIn, session: SessionKey("lab-3/tty1")!, tokens: TokenSet(accessToken: "gho-grace"))
        else { Issue.record("no Grace"); return }
        let alan = try Sample.signIn([Sample.adaGoogle], into: owner, session: SessionKey("setup")!)[0]
        let station = try PGConnection.connect(setup.stationURL)
        let adaSubject = Sample.adaGitHub.identity.subject
        for (statement, what) in [
            ("INSERT INTO session (key, accountId, updatedAt) VALUES ('lab-3/steal', \(ada.id), now())", "no session of its own made Ada's without her PIN"),
            ("UPDATE session SET accountId = \(ada.id) WHERE key = 'lab-3/tty1'", "nor switched to her"),
            ("UPDATE identity SET accountId = \(grace.id) WHERE provider = 'github' AND subject = '\(adaSubject)'", "her identity not moved"),
            ("DELETE FROM identity WHERE provider = 'github' AND subject = '\(adaSubject)'", "nor removed"),
            ("DELETE FROM account WHERE id = \(ada.id)", "her account not removed (its PIN gone with it)"),
            ("DELETE FROM account WHERE id = \(alan)", "nor one, even without a PIN, that another session has active"),
            ("SELECT switchboard_pin_set('account:\(alan)', \(alan), 'pbkdf2-sha256', 1000, '\\x01', '\\x00', now())",
             "no PIN set on an account it does not have active"),
            ("SELECT switchboard_pin_set('operator', NULL, 'pbkdf2-sha256', 1000, '\\x01', '\\x00', now())", "nor the operator PIN"),
            ("INSERT INTO event (id, at, kind, detail) VALUES (9223372036854775807, now(), 'x', '{}')", "no event id of its choosing"),
            ("INSERT INTO account (id, name, createdAt) VALUES (100000, 'Squat', now())", "nor an account's"),
            ("SELECT nextval(pg_get_serial_sequence('event', 'id'))", "no sequence moved"),
        ] {
            #expect(throws: PGError.self, "\(what)") { try station.execute(statement) }
        }
        // Tokens written for a person it does not have active: nothing is stored.
        try station.execute("SELECT switchboard_save_tokens('github', '\(adaSubject)', 'EVIL', 'EVIL', NULL, 'Bearer', NULL, NULL, now())")
        #expect(try owner.credential(for: Sample.adaGitHub.identity)?.accessToken == "gho-ada-secret")
        // What it has active is its own to change: a PIN for Grace.
        try station.execute("SELECT switchboard_pin_set('account:\(grace.id)', \(grace.id), 'pbkdf2-sha256', 1000, '\\x01', '\\x00', now())")
        #expect(try owner.hasPIN(.account(grace.id)))
        #expect(try owner.active(in: SessionKey("lab-4/tty1")!).id == ada.id)

        // Alan has no PIN; made active at lab-4, he is lab-4's: lab-3 leaves him alone, even once it has him active too.
        _ = try owner.switchAccount(to: alan, session: SessionKey("lab-4/tty2")!)
        let alanSubject = Sample.adaGoogle.identity.subject
        for (statement, what) in [
            ("UPDATE identity SET accountId = \(grace.id) WHERE provider = 'google' AND subject = '\(alanSubject)'", "his identity not taken"),
            ("UPDATE identity SET email = 'mallory@evil.example' WHERE provider = 'google' AND subject = '\(alanSubject)'", "nor changed"),
            ("DELETE FROM identity WHERE provider = 'google' AND subject = '\(alanSubject)'", "nor removed"),
            ("INSERT INTO identity (provider, subject, accountId, state, linkedAt) VALUES ('gitlab', 'planted', \(alan), 'authorized', now())",
             "nor one planted in his account"),
            ("UPDATE account SET name = 'Alan (old)', nameKey = 'alan (old)' WHERE id = \(alan)", "he is not renamed"),
            ("INSERT INTO station (station, terminal, session, version, startedAt, heartbeatAt, heartbeatSeconds) "
                + "VALUES ('lab-3', 'ghost', 'lab-4/tty2', '1', now(), now(), 30)", "no row of its own points at another station's session"),
        ] {
            #expect(throws: PGError.self, "\(what)") { try station.execute(statement) }
        }
        try station.execute("INSERT INTO session (key, accountId, updatedAt) VALUES ('lab-3/tty5', \(alan), now())")
        #expect(throws: PGError.self, "no PIN of its choosing on a person another station has active") {
            try station.execute("SELECT switchboard_pin_set('account:\(alan)', \(alan), 'pbkdf2-sha256', 1000, '\\x01', '\\x00', now())")
        }
    }

    @Test("from a station's command line, --session naming another station's terminal hands out and signs out nothing")
    func otherStationFromTheCommandLine() async throws {
        let setup = try await OwnRoleFleet()
        let owner = try setup.fleet.database()
        _ = try owner.signIn(Sample.adaGitHub, mode: .signIn, session: SessionKey("lab-4/tty1")!, tokens: TokenSet(accessToken: "gho-ada-secret"))
        _ = try owner.signIn(Sample.graceGitHub, mode: .signIn, session: SessionKey("lab-3/tty1")!, tokens: TokenSet(accessToken: "gho-grace"))
        try setup.useStationRole()
        let own = await setup.fleet.run("token", "github", at: "lab-3")
        #expect(own.status == 0 && own.stdout == "gho-grace\n", "its own session's token: \(own)")
        for arguments in [
            ["token", "github", "--session", "lab-4/tty1"], ["env", "--tokens", "--session", "lab-4/tty1"],
            ["token", "github", "--account", "Ada Lovelace"],
        ] {
            let result = await setup.fleet.run(arguments, at: "lab-3")
            #expect(result.status != 0 || !result.stdout.contains("gho-ada-secret"), "\(arguments): \(result)")
            #expect(!result.stdout.contains("gho-ada-secret") && !result.stderr.contains("gho-ada-secret"), "\(arguments): \(result)")
        }
        _ = await setup.fleet.run("sign-out", "--session", "lab-4/tty1", at: "lab-3")
        #expect(try owner.active(in: SessionKey("lab-4/tty1")!).account?.name == "Ada Lovelace", "still signed in at lab-4")

        // The operator's role (no station's) signs lab-3 out from elsewhere: allowed, and the log says by whom.
        let schema = String(setup.fleet.url.split(separator: "%3D").last ?? "")
        let operatorRole = "op_" + schema.dropFirst(2).prefix(20)
        let admin = try PGConnection.connect(setup.fleet.url)
        try admin.execute("CREATE ROLE \(operatorRole) LOGIN; " + StationGrants.statements(schema: schema, to: operatorRole))
        let operatorURL = setup.fleet.url.replacingOccurrences(of: "//switchboard@", with: "//\(operatorRole)@")
        let signedOut = await setup.fleet.run("sign-out", "--session", "lab-3/tty1", "--store", operatorURL, at: "lab-4")
        #expect(signedOut.status == 0, "\(signedOut)")
        let log = await setup.asOwner("log", "--station", "lab-3", "--limit", "1")
        #expect(log.stdout.hasSuffix("signed out (by role \(operatorRole))\n"), "\(log.stdout)")

        // A station whose configuration names another station than its role's is told, and does nothing.
        try setup.useStationRole(at: "lab-4")
        let mismatch = await setup.fleet.run("status", at: "lab-4")
        #expect(mismatch.status == 6 && mismatch.stderr.contains("set station = \"lab-3\""), "\(mismatch)")
    }
    @Test("a PIN's hash never leaves the server: a station reads none, changes no count or PIN row itself, and its PINs work through the server's functions")
    func pinsOnTheServer() async throws {
        let setup = try await OwnRoleFleet()
        let owner = try setup.fleet.database()
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: owner, session: SessionKey("setup")!)
        try owner.setPIN("13579", for: .operatorPIN, proof: nil)
        try owner.setPIN("2468", for: .account(ids[1]), proof: nil)
        let station = try PGConnection.connect(setup.stationURL)
        #expect(try station.query("SELECT owner, failures, salt FROM pin ORDER BY owner").rowCount == 2, "what a PIN is besides its hash is readable")
        for (statement, what) in [
            ("SELECT hash FROM pin", "no hash is read"),
            ("SELECT * FROM pin", "not even with the rest"),
            ("UPDATE pin SET failures = 0", "no count is reset"),
            ("DELETE FROM pin WHERE owner = 'operator'", "the operator PIN's row is not deleted"),
            ("INSERT INTO pin (owner, algorithm, rounds, salt, hash, setAt) VALUES ('operator', 'x', 1, '', '', now())", "nor written"),
            ("SELECT switchboard_pin_set('operator', NULL, 'pbkdf2-sha256', 1000, '\\x00', '\\x00', now())", "nor set without the PIN"),
            ("SELECT switchboard_pin_set('account:\(ids[1])', \(ids[1]), 'pbkdf2-sha256', 1000, '\\x00', '\\x00', now())", "nor a profile's"),
            ("SELECT switchboard_pin_set('account:\(ids[0])', \(ids[1]), 'pbkdf2-sha256', 1000, '\\x00', '\\x00', now())", "nor one whose owner and account disagree"),
            ("SELECT switchboard_pin_clear('account:\(ids[1])')", "no count cleared without the operator PIN"),
        ] {
            #expect(throws: PGError.self, "\(what)") { try station.execute(statement) }
        }
        // A try rolled back is counted all the same: the verdict is never free.
        for _ in 0..<Lockout.freeFailures {
            try station.execute("BEGIN")
            let verdict = try station.query("SELECT tried_verdict FROM switchboard_pin_try('account:\(ids[1])', '\\x00', now(), '')")
            #expect(verdict.text(0, 0) == "wrong")
            try station.execute("ROLLBACK")
        }
        let rolledBack = try station.query("SELECT tried_verdict FROM switchboard_pin_try('account:\(ids[1])', '\\x00', now(), '')")
        #expect(rolledBack.text(0, 0) == "locked", "five wrong tries rolled back still lock the PIN out")
        try owner.setPIN("2468", for: .account(ids[1]), proof: "13579")
        // A wrong try is counted by the server's clock, whatever time the station gives.
        let tried = try station.query("SELECT tried_verdict, tried_failures, tried_last_failure > now() - interval '1 hour' AND tried_last_failure < now() + interval '1 hour' "
            + "FROM switchboard_pin_try('operator', '\\x00', '2100-01-01', '')")
        #expect(tried.text(0, 0) == "wrong" && tried.text(0, 1) == "1" && tried.text(0, 2) == "t")

        // The station's own work: a switch with the PIN, a wrong one counted, the PIN changed with it.
        let lab3 = try AppDatabase(testing: .server(setup.stationURL))
        let session = SessionKey("lab-3/tty1")!
        #expect(throws: StoreError.self) { try lab3.switchAccount(to: ids[1], session: session, pin: .account("1111")) }
        #expect(try owner.pinAttempts(of: .account(ids[1])).failures == 1)
        #expect(try lab3.switchAccount(to: ids[1], session: session, pin: .account("2468")).current.account?.id == ids[1])
        #expect(try owner.pinAttempts(of: .account(ids[1])).failures == 0)
        try lab3.setPIN("8642", for: .account(ids[1]), proof: "2468")
        #expect(try lab3.switchAccount(to: ids[1], session: session, pin: .account("8642")).current.account?.id == ids[1])
        #expect(throws: StoreError.self, "the operator PIN is not replaced without itself") { try lab3.setPIN("0000", for: .operatorPIN, proof: "2468") }
        try lab3.checkOperatorPIN("13579", session: session)

        // Anyone at any station can lock the operator PIN out; only the owner clears that, without the PIN.
        for _ in 0..<Lockout.freeFailures { #expect(throws: StoreError.self) { try lab3.checkOperatorPIN("0000", session: session) } }
        #expect(throws: StoreError.self) { try lab3.checkOperatorPIN("13579", session: session) }
        try setup.useStationRole()
        let refused = await setup.fleet.run("pin", "reset", "--operator", at: "lab-3")
        #expect(refused.status == 5 && refused.stderr.contains("only the owner of the store's tables"), "\(refused)")
        let cleared = await setup.asOwner("pin", "reset", "--operator")
        #expect(cleared.status == 0 && cleared.stdout.contains("Wrong tries cleared for the operator PIN"), "\(cleared)")
        try lab3.checkOperatorPIN("13579", session: session)
        let log = await setup.asOwner("log")
        #expect(log.stdout.contains("PIN wrong tries cleared by the owner (operator)"), "\(log.stdout)")
    }

    @Test("the server's lockout waits are Lockout's, count by count")
    func lockoutSchedule() async throws {
        let setup = try await OwnRoleFleet()
        let admin = try PGConnection.connect(setup.fleet.url)
        let waits = try admin.query("SELECT f, extract(epoch FROM switchboard_pin_wait(f))::bigint FROM generate_series(0, 40) AS f ORDER BY f")
        #expect(waits.rowCount == 41)
        for row in 0..<waits.rowCount {
            let failures = try #require(waits.text(row, 0).flatMap(Int.init))
            #expect(waits.text(row, 1).flatMap(Double.init) == Lockout.wait(afterFailures: failures), "after \(failures) wrong PINs")
        }
    }
}
