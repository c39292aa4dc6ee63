import Foundation
import Postgres
import PostgresServer
import Store
import SwitchboardCore
import Testing
import TestSupport

/// Two stations of a fleet, each with its own config.toml (its station's
/// name, the shared store's URL), on the test run's PostgreSQL server.
final class Fleet: Sendable {
    let folder = TemporaryFolder()
    /// The shared store's URL (a fresh schema of this suite's database).
    let url: String

    init(suite: String = #fileID) throws {
        url = try TestPostgres.freshStore(suite: suite)
        for station in ["lab-3", "lab-4"] {
            let config = folder.file("\(station).toml")
            try "[store]\nurl = \"\(url)\"\nstation = \"\(station)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        }
    }

    deinit { folder.remove() }

    /// The store as tests open it.
    func database() throws -> AppDatabase { try AppDatabase(testing: .server(url)) }

    /// The environment of a command run at `station`: its config.toml, and a
    /// data folder of its own (where no SQLite file may appear).
    func environment(_ station: String) -> [String: String] {
        ["SWITCHBOARD_CONFIG": folder.file("\(station).toml"), "XDG_DATA_HOME": folder.file("data-\(station)")]
    }

    /// Runs `switchboard` in this process at `station`, on terminal `tty1` unless another is given.
    func run(_ arguments: String..., at station: String, terminal: String? = "tty1", environment: [String: String] = [:]) async -> ProcessResult {
        await run(arguments, at: station, terminal: terminal, environment: environment)
    }

    /// `run` with the arguments as an array.
    func run(_ arguments: [String], at station: String, terminal: String? = "tty1", environment: [String: String] = [:]) async -> ProcessResult {
        let tty = terminal.map { TerminalIdentity(name: $0, lifetime: nil) }
        return await TestIO(environment: self.environment(station).merging(environment) { $1 }, terminal: tty).run(arguments)
    }
}

@Suite("switchboard on a shared PostgreSQL store")
struct SharedStoreCLITests {
    @Test("[store] url, SWITCHBOARD_STORE and --store select the shared store; no SQLite file is made")
    func selection() async throws {
        let fleet = try Fleet()
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: try fleet.database(), session: SessionKey("setup")!)
        let byConfig = await fleet.run("accounts", "--json", at: "lab-3")
        #expect(byConfig.status == 0, "\(byConfig.stderr)")
        #expect(byConfig.stdout.contains("Ada Lovelace") && byConfig.stdout.contains("Grace Hopper"))
        let elsewhere = ["SWITCHBOARD_CONFIG": fleet.folder.file("none.toml"), "XDG_DATA_HOME": fleet.folder.file("data-none")]
        let byEnvironment = await TestIO(environment: elsewhere.merging(["SWITCHBOARD_STORE": fleet.url]) { $1 }).run(["accounts"])
        #expect(byEnvironment.status == 0 && byEnvironment.stdout.contains("\(ids[1])\tGrace Hopper"), "\(byEnvironment)")
        let byFlag = await TestIO(environment: elsewhere).run(["accounts", "--store", fleet.url])
        #expect(byFlag.status == 0 && byFlag.stdout.contains("Ada Lovelace"), "\(byFlag)")
        for data in ["data-lab-3", "data-none"] {
            #expect(!FileManager.default.fileExists(atPath: fleet.folder.file("\(data)/switchboard/switchboard.sqlite")))
        }
        // --database still picks a file over the configured store.
        let file = await fleet.run("accounts", "--database", fleet.folder.file("own.sqlite"), at: "lab-3")
        #expect(file.status == 0 && file.stdout.contains("No accounts yet"), "\(file)")
    }

    @Test("a password in --store is refused, unrepeated; two stores at once are refused; a URL that is not PostgreSQL's is named", arguments: [
        (["accounts", "--store", "postgresql://lab:hunter2@127.0.0.1:1/fleet"], "--store: the URL holds a password"),
        (["accounts", "--store", "postgresql://lab@127.0.0.1:1/fleet?%70assword=hunter2"], "--store: the URL holds a password"),
        (["accounts", "--store", "postgresql://lab@127.0.0.1:1/fleet?sslmode=disable&pa%73sword=hunter2"], "--store: the URL holds a password"),
        (["store", "copy", "--to", "postgresql://lab@127.0.0.1:1/fleet?%70assword=hunter2"], "--to: the URL holds a password"),
        (["accounts", "--store", "postgresql://127.0.0.1:1/fleet", "--database", "/tmp/x.sqlite"], "--store and --database name two stores"),
        (["accounts", "--store", "mysql://127.0.0.1/fleet"], "--store: expected a PostgreSQL URL"),
    ])
    func refusedLocations(arguments: [String], message: String) async throws {
        let result = await TestIO(environment: [:]).run(arguments)
        #expect(result.status == 6, "\(result)")
        #expect(result.stderr.contains(message) && !result.stderr.contains("hunter2"), "\(result.stderr)")
    }

    @Test("a server that cannot be reached: the command fails at once with its own status, naming the server")
    func offline() async throws {
        let port = try ThrowawayCluster.freePort()
        let result = await TestIO(environment: [:]).run(["accounts", "--store", "postgresql://lab@127.0.0.1:\(port)/fleet"])
        #expect(result.status == 18, "\(result)")
        #expect(result.stderr.contains("postgresql://lab@127.0.0.1:\(port)/fleet: the store's server cannot be reached"), "\(result.stderr)")
    }

    @Test("a terminal's session carries its station: tty1 at lab-3 and at lab-4 are two sessions; --session names one exactly")
    func stations() async throws {
        let fleet = try Fleet()
        try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: try fleet.database(), session: SessionKey("setup")!)
        #expect(await fleet.run("switch", "Ada Lovelace", at: "lab-3").status == 0)
        #expect(await fleet.run("switch", "Grace Hopper", at: "lab-4").status == 0)
        let three = await fleet.run("status", "--json", at: "lab-3")
        #expect(three.stdout.contains("\"session\":\"lab-3/tty1\"") && three.stdout.contains("Ada Lovelace"), "\(three)")
        let four = await fleet.run("status", "--json", at: "lab-4")
        #expect(four.stdout.contains("\"session\":\"lab-4/tty1\"") && four.stdout.contains("Grace Hopper"), "\(four)")
        // An operator anywhere names lab-3's terminal exactly.
        let named = await fleet.run("status", "--session", "lab-3/tty1", at: "lab-4", terminal: nil)
        #expect(named.stdout.contains("Ada Lovelace"), "\(named)")
        #expect(await fleet.run("sign-out", "--session", "lab-3/tty1", at: "lab-4", terminal: nil).status == 0)
        #expect(try fleet.database().active(in: SessionKey("lab-3/tty1")!) == .anonymous)
        #expect(try fleet.database().active(in: SessionKey("lab-4/tty1")!).account?.name == "Grace Hopper")
    }

    @Test("store copy --to moves a SQLite store whole into an empty shared one, and refuses a second time; store migrate says what it applied")
    func copyAndMigrate() async throws {
        let fleet = try Fleet()
        let file = fleet.folder.file("old/switchboard.sqlite")
        let old = try AppDatabase(testing: file)
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: old, session: SessionKey("setup")!)
        try old.setPIN("2468", for: .account(ids[0]), proof: nil)
        let migrate = await fleet.run("store", "migrate", at: "lab-3")
        #expect(migrate.status == 0, "\(migrate.stderr)")
        #expect(migrate.stdout.hasPrefix("Migrated postgresql://switchboard@127.0.0.1:") && migrate.stdout.contains("  v5: "), "\(migrate.stdout)")
        let again = await fleet.run("store", "migrate", "--json", at: "lab-3")
        #expect(again.stdout.contains("\"applied\":[]"), "\(again.stdout)")

        let copy = await fleet.run("store", "copy", "--database", file, "--to", fleet.url, at: "lab-3")
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(copy.stdout.contains("account\t2") && copy.stdout.contains("pin\t1"), "\(copy.stdout)")
        #expect(try fleet.database().accounts() == old.accounts())
        #expect(try fleet.database().protectedAccounts() == [ids[0]])
        let twice = await fleet.run("store", "copy", "--database", file, "--to", fleet.url, at: "lab-3")
        #expect(twice.status == 5 && twice.stderr.contains("not empty"), "\(twice)")
        // Back from the fleet into a new file, --from.
        let back = fleet.folder.file("back.sqlite")
        let from = await fleet.run("store", "copy", "--database", back, "--from", fleet.url, "--json", at: "lab-3")
        #expect(from.status == 0 && from.stdout.contains("\"account\":2"), "\(from)")
        #expect(try AppDatabase(testing: back).accounts() == old.accounts())
        let secret = await fleet.run("store", "copy", "--to", "postgresql://lab:hunter2@127.0.0.1:1/x", at: "lab-3")
        #expect(secret.status == 6 && !secret.stderr.contains("hunter2"), "\(secret)")
    }

    @Test("over TLS with verify-full and the fleet's CA the whole flow works; a server certificate from another CA is refused before any statement")
    func tls() async throws {
        let fleet = try Fleet()
        let cluster = try TestPostgres.cluster()
        let ca = fleet.folder.file("fleet-ca.crt"), other = fleet.folder.file("other-ca.crt")
        try cluster.caCertificate.write(toFile: ca, atomically: true, encoding: .utf8)
        try cluster.otherCACertificate.write(toFile: other, atomically: true, encoding: .utf8)
        let trusted = TestPostgres.adding("sslmode=verify-full&sslrootcert=\(ca)", to: fleet.url)
        let untrusted = TestPostgres.adding("sslmode=verify-full&sslrootcert=\(other)", to: fleet.url)

        let refused = await fleet.run("accounts", "--store", untrusted, at: "lab-3")
        #expect(refused.status == 5, "\(refused)")
        #expect(refused.stderr.contains("certificate not trusted") && refused.stderr.contains("postgresql://switchboard@127.0.0.1:"), "\(refused.stderr)")
        // Nothing reached the store: not even its migration ran.
        let admin = try PGConnection.connect(fleet.url)
        #expect(try admin.query("SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()").text(0, 0) == "0")

        let environment = ["SWITCHBOARD_STORE": trusted]
        try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: try AppDatabase(testing: .server(trusted)), session: SessionKey("setup")!)
        #expect(await fleet.run("switch", "Grace Hopper", at: "lab-3", environment: environment).status == 0)
        let status = await fleet.run("status", at: "lab-3", environment: environment)
        #expect(status.status == 0 && status.stdout.contains("Grace Hopper"), "\(status)")
    }

    @Test("the stations' role needs no more than docs/FLEET.md grants: it works the store, may create nothing, delete no event, write no migration")
    func leastPrivileges() async throws {
        let fleet = try Fleet()
        // The owner migrates (switchboard store migrate, as the operator would).
        #expect(await fleet.run("store", "migrate", at: "lab-3").status == 0)
        let admin = try PGConnection.connect(fleet.url)
        let schema = try #require(try admin.query("SELECT current_schema()").text(0, 0))
        let role = "station_" + schema.dropFirst(2).prefix(12)
        // docs/FLEET.md's grants, table by table, in the fleet's schema.
        try admin.execute("""
            CREATE ROLE \(role) LOGIN;
            GRANT CONNECT ON DATABASE \(try #require(try admin.query("SELECT current_database()").text(0, 0))) TO \(role);
            """ + StationGrants.statements(schema: schema, to: role))
        let station = fleet.url.replacingOccurrences(of: "//switchboard@", with: "//\(role)@")
        let database = try AppDatabase(testing: .server(station))
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: database, session: SessionKey("lab-3/tty1")!)
        try database.setPIN("2468", for: .account(ids[0]), proof: nil)
        _ = try database.switchAccount(to: ids[0], session: SessionKey("lab-3/tty1")!, pin: .account("2468"))
        _ = try database.disconnect(Sample.graceGitHub.identity, session: SessionKey("lab-3/tty1")!)
        let lock = try await database.lockRefreshes(of: Sample.adaGitHub.identity)
        lock.release()
        let listed = await fleet.run("accounts", "--store", station, at: "lab-3")
        #expect(listed.status == 0, "\(listed.stderr)")
        let connection = try PGConnection.connect(station)
        #expect(throws: PGError.self, "no CREATE in the schema") { try connection.execute("CREATE TABLE \(schema).extra (x int)") }
        #expect(throws: PGError.self, "nor anywhere else") { try connection.execute("CREATE TABLE public.extra (x int)") }
        let events = try #require(try admin.query("SELECT count(*) FROM \(schema).event").text(0, 0).flatMap(Int.init))
        #expect(events >= 5)
        for (statement, what) in [
            ("DELETE FROM \(schema).event", "no event deleted, not even all of them"),
            ("DELETE FROM \(schema).event WHERE id = (SELECT max(id) FROM \(schema).event)", "nor the newest"),
            ("DELETE FROM \(schema).event WHERE id = (SELECT min(id) FROM \(schema).event)", "nor the oldest: pruning is the owner's"),
            ("TRUNCATE \(schema).event", "no TRUNCATE"),
            ("UPDATE \(schema).event SET kind = 'x'", "no event changes"),
            ("INSERT INTO \(schema).switchboard_migration (identifier) VALUES ('v99: stops every station')", "no migration row"),
            ("DELETE FROM \(schema).switchboard_migration", "nor a migration row less"),
        ] {
            #expect(throws: PGError.self, "\(what)") { try connection.execute(statement) }
        }
        #expect(try database.pruneEvents(loggedBefore: Date.distantFuture) == 0, "a station's chooser prunes nothing, and is not refused")
        let stationPrune = await fleet.run("store", "prune", "--store", station, at: "lab-3")
        #expect(stationPrune.status != 0 && stationPrune.stderr.contains("only the owner of the store's tables may delete events"), "\(stationPrune)")
        #expect(try admin.query("SELECT count(*) FROM \(schema).event").text(0, 0).flatMap(Int.init) == events)
        #expect(try admin.query("SELECT count(*) FROM \(schema).switchboard_migration").text(0, 0).flatMap(Int.init) == AppDatabase.migrations.count)

        // A role granted every table, as this page once said, is kept off the log and the migrations by the store's triggers.
        let broad = "broad_" + schema.dropFirst(2).prefix(12)
        try admin.execute("""
            CREATE ROLE \(broad) LOGIN;
            GRANT USAGE ON SCHEMA \(schema) TO \(broad);
            GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA \(schema) TO \(broad)
            """)
        let broadly = try PGConnection.connect(fleet.url.replacingOccurrences(of: "//switchboard@", with: "//\(broad)@"))
        for statement in [
            "DELETE FROM \(schema).event", "TRUNCATE \(schema).event",
            "INSERT INTO \(schema).switchboard_migration (identifier) VALUES ('v99: stops every station')",
        ] {
            do {
                try broadly.execute(statement)
                Issue.record("\(statement) passed")
            } catch {
                #expect(error.detail.contains("only the owner of the store's tables may"), "\(error)")
            }
        }
        #expect(try admin.query("SELECT count(*) FROM \(schema).event").text(0, 0).flatMap(Int.init) == events)

        // The owner prunes.
        let owner = try AppDatabase(testing: .server(fleet.url))
        #expect(try owner.pruneEvents(loggedBefore: Date.distantFuture) == events)
    }
}
