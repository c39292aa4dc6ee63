import Foundation
import Postgres
import SwitchboardCore

/// A station of a shared store with a role of its own: the server then
/// says which station a connection acts for (`switchboard_station()`, from
/// the role it logged in as), and its row-level security keeps that role to
/// the station's own sessions, station rows and the tokens of the accounts
/// its sessions have active.
public struct StationRole: Hashable, Sendable, Encodable {
    /// The station's name in the fleet: its terminals' sessions are `STATION/TERMINAL`.
    public let station: String
    /// The PostgreSQL role it connects as.
    public let role: String
}

/// What a new station's role is given once, to be put on the station:
/// Switchboard keeps no copy of the password, the server only its verifier.
public struct StationLogin: Sendable {
    /// The station and its role.
    public let role: StationRole
    /// The role's password (secret: it goes into the station's `~/.pgpass` only).
    public let password: String
    /// The database the role may connect to.
    public let database: String

    /// The station's line of `~/.pgpass`: this database and role, on any
    /// host and port (the URL names those).
    public var pgpassLine: String {
        func escaped(_ field: String) -> String { field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: ":", with: "\\:") }
        return "*:*:\(escaped(database)):\(escaped(role.role)):\(escaped(password))\n"
    }
}

extension AppDatabase {
    /// Why `name` cannot name a station, or nil when it can: a session's
    /// name (`SessionKey.problem(with:)`) with no `/`, which ends a
    /// station's name in its terminals' sessions, and at most 63 bytes.
    public static func stationNameProblem(_ name: String) -> String? {
        if let problem = SessionKey.problem(with: name) { return problem }
        if name.contains("/") { return "it holds \"/\", which separates a station from its terminal in a session's name" }
        if name.utf8.count > 63 { return "it is longer than 63 bytes" }
        return nil
    }

    /// The role `fleet add` makes for `station` unless told another:
    /// `switchboard_` and the name, lower case, with every character but
    /// ASCII letters and digits as `_`, at most 63 bytes (PostgreSQL's limit).
    public static func roleName(forStation station: String) -> String {
        let body = station.lowercased().unicodeScalars.map { scalar -> Character in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) ? Character(scalar) : "_"
        }
        return String(("switchboard_" + String(body)).utf8.prefix(63)) ?? "switchboard_station"
    }

    /// Makes a role of its own for `station` (named `role`, else
    /// `roleName(forStation:)`), with a new random password, in one
    /// transaction: the role, its grants (exactly the tables a station
    /// works, in this schema) and the line that names it the station's.
    /// Taken by the store's owner, who may create roles (`CREATEROLE`).
    /// The password is sent to the server only as a SCRAM verifier.
    public func addStation(_ station: String, role: String? = nil) throws(StoreError) -> StationLogin {
        if let problem = Self.stationNameProblem(station) {
            throw .badStation("invalid station name \(String(reflecting: station).displaySafe): \(problem)")
        }
        let role = role ?? Self.roleName(forStation: station)
        if let problem = Self.roleNameProblem(role) { throw .badStation("invalid role name \(String(reflecting: role).displaySafe): \(problem)") }
        let password = Self.newPassword()
        let database: String = try administer(locked: false) { connection in
            if let taken = try connection.query(
                "SELECT role FROM switchboard_station_role WHERE station = $1", [PGParameter(type: PGType.text, text: station)]
            ).text(0, 0) {
                throw StoreError.stationTaken("station \(station.displaySafe) has a role already (\(taken.displaySafe)); "
                    + "`switchboard fleet remove \(station.displaySafe)` first to give it a new one")
            }
            if try connection.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [PGParameter(type: PGType.text, text: role)]).rowCount > 0 {
                throw StoreError.stationTaken("a role named \(role.displaySafe) exists already; name another with --role")
            }
            let names = try connection.query("SELECT quote_ident(current_database()), quote_ident(current_schema()), current_database()")
            guard let quotedDatabase = names.text(0, 0), let schema = names.text(0, 1), let database = names.text(0, 2) else {
                throw SQLDecodingError(description: "the server named no database or schema")
            }
            // Two grants on one database at once fail ("tuple concurrently updated"), whatever the schema: one at a time.
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('switchboard: station roles'))")
            let verifier = try connection.scramVerifier(password, role: role)
            guard let secret = connection.literal(verifier) else { throw SQLDecodingError(description: "the password could not be quoted") }
            let name = connection.quoted(role)
            // The owner is made a member, so that it may end the role's connections and drop it (`removeStation`).
            try connection.execute("""
                CREATE ROLE \(name) LOGIN PASSWORD \(secret);
                GRANT \(name) TO CURRENT_USER;
                GRANT CONNECT ON DATABASE \(quotedDatabase) TO \(name);
                """ + StationGrants.statements(schema: schema, to: name))
            _ = try connection.query(
                "INSERT INTO switchboard_station_role (role, station) VALUES ($1, $2)",
                [PGParameter(type: PGType.text, text: role), PGParameter(type: PGType.text, text: station)])
            return database
        }
        return StationLogin(role: StationRole(station: station, role: role), password: password, database: database)
    }

    /// Takes `station`'s role away: first, in one transaction, the line
    /// naming it the station's, its right to log in and to connect; then
    /// every connection it has is ended (the owner is a member of the role,
    /// so may), again until none is left; then, in one transaction,
    /// whatever it owns or was granted in this database, and the role. None
    /// of it waits for the fleet's write lock, which the role may be the
    /// one holding. Its sessions and their history stay.
    public func removeStation(_ station: String) throws(StoreError) -> StationRole {
        let role: String = try administer(locked: false) { connection in
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('switchboard: station roles'))")
            guard let role = try connection.query(
                "SELECT role FROM switchboard_station_role WHERE station = $1", [PGParameter(type: PGType.text, text: station)]
            ).text(0, 0) else { throw StoreError.stationNotFound(station) }
            _ = try connection.query("DELETE FROM switchboard_station_role WHERE role = $1", [PGParameter(type: PGType.text, text: role)])
            guard let database = try connection.query("SELECT quote_ident(current_database())").text(0, 0) else {
                throw SQLDecodingError(description: "the server named no database")
            }
            let name = connection.quoted(role)
            try connection.execute("ALTER ROLE \(name) NOLOGIN; REVOKE CONNECT ON DATABASE \(database) FROM \(name)")
            return role
        }
        try administer(locked: false) { connection in
            // A connection opened before the role lost its login may still be starting: look again until none is left.
            for _ in 0..<50 {
                let left = try connection.query(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = $1", [PGParameter(type: PGType.text, text: role)])
                if left.text(0, 0) == "0" { break }
                usleep(20_000)
            }
        }
        try administer(locked: false) { connection in
            let name = connection.quoted(role)
            try connection.execute("DROP OWNED BY \(name); DROP ROLE \(name)")
        }
        // Nobody stays signed in at a station that can no longer connect: each of its sessions is signed out, saying why.
        try write { db in
            let sessions = try db.column(
                "SELECT key FROM session WHERE accountId IS NOT NULL AND left(key, length($1) + 1) = $1 || '/' ORDER BY key", [station],
                as: String.self)
            for key in sessions {
                let session = SessionKey(stored: key)
                _ = try Self.signOut(
                    session: session, previous: try Self.active(db, session: session), detail: ["reason": "station removed"], db: db, at: Date())
            }
        }
        return StationRole(station: station, role: role)
    }

    /// The stations with roles of their own, by name.
    public func stationRoles() throws(StoreError) -> [StationRole] {
        guard engine.isShared else { return [] }
        return try read { db in
            try db.map("SELECT station, role::text FROM switchboard_station_role ORDER BY station") { row in
                StationRole(station: try row[0], role: try row[1])
            }
        }
    }

    /// The station the server says this connection acts for: set when it
    /// logged in as a station's own role, nil for any other role (the
    /// owner's, the operator's) and on a file.
    public func serverStation() throws(StoreError) -> String? {
        guard engine.isShared else { return nil }
        return try read { db in try db.value("SELECT switchboard_station()", as: String.self) }
    }

    /// The fleet's clock: on a shared store the server's time (every station
    /// reads the same clock, whatever its own says), on a file this machine's.
    public func serverTime() throws(StoreError) -> Date {
        guard engine.isShared else { return Date() }
        return try read { db in try db.value("SELECT clock_timestamp()", as: Date.self) } ?? Date()
    }

    /// The fleet's time, and how many seconds it is ahead of the clock
    /// `local` reads (behind: negative), measured as the server's reading
    /// against the middle of the round trip.
    public func fleetClock(against local: () -> Date) throws(StoreError) -> (time: Date, offset: TimeInterval) {
        let before = local()
        let server = try serverTime()
        let after = local()
        return (server, server.timeIntervalSince(before.addingTimeInterval(after.timeIntervalSince(before) / 2)))
    }

    /// Runs `body` on the server's own connection (roles are PostgreSQL's
    /// alone), mapping its errors; on a file, refuses.
    private func administer<T>(locked: Bool = true, _ body: (PGConnection) throws -> T) throws(StoreError) -> T {
        guard let engine = engine as? PostgresEngine else {
            throw .badLocation("stations have roles of their own only on a shared store (PostgreSQL); give its URL with --store")
        }
        do { return try engine.administer(locked: locked, body) } catch { throw engine.storeError(error) }
    }

    /// Why `role` cannot name a new role, or nil: 1 to 63 bytes of
    /// printable ASCII, not beginning with `pg_` (reserved by the server).
    private static func roleNameProblem(_ role: String) -> String? {
        if role.isEmpty || role.utf8.count > 63 { return "a role's name is 1 to 63 bytes" }
        if !role.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 }) {
            return "use printable ASCII letters, digits and punctuation, no spaces"
        }
        if role.lowercased().hasPrefix("pg_") { return "names beginning with pg_ are the server's own" }
        return nil
    }

    /// 32 random letters and digits (about 190 bits), from the system's
    /// generator: nothing to escape in a URL, a shell or `~/.pgpass`.
    private static func newPassword() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<32).map { _ in alphabet.randomElement(using: &generator)! })
    }
}

/// What a station's role (and the operator's) is granted on the store's
/// tables: exactly what its work needs, column by column where a column is
/// the owner's to write (ids) or to read (tokens, PIN hashes). Row-level
/// security and the owner's triggers narrow it further. `fleet add` grants
/// it; docs/FLEET.md gives the same as SQL; a migration brings older
/// stations' grants to it.
public enum StationGrants {
    /// Tables read and written whole.
    static let tables = ["identity", "session", "favourite", "providerData", "station"]
    /// What of `account` is written: all but its id, which the server gives.
    static let accountColumns = "name, nameKey, createdAt, lastUsedAt, useCount"
    /// What of `event` is written: all but its id, which the server gives
    /// (and its origin and, for a station, its time, which the server stamps).
    static let eventColumns = "at, session, kind, accountId, detail, accountName, accountNameKey"
    /// What of `credential` is read: all but the (sealed) tokens, which the
    /// owner's functions store and hand out.
    static let credentialColumns = "provider, subject, tokenType, scope, expiresAt, updatedAt"
    /// What of `pin` is read: all but the hash. The owner's functions try,
    /// count and set PINs.
    static let pinColumns = "owner, accountId, algorithm, rounds, salt, setAt, failures, lastFailureAt"

    /// The statements that grant them in `schema` (quoted) to `role` (quoted).
    public static func statements(schema: String, to role: String) -> String {
        """
        GRANT USAGE ON SCHEMA \(schema) TO \(role);
        GRANT SELECT, INSERT, UPDATE, DELETE ON \(tables.map { "\(schema).\($0)" }.joined(separator: ", ")) TO \(role);
        GRANT SELECT, INSERT (\(accountColumns)), UPDATE (\(accountColumns)), DELETE ON \(schema).account TO \(role);
        GRANT SELECT, INSERT (\(eventColumns)) ON \(schema).event TO \(role);
        GRANT SELECT (\(credentialColumns)) ON \(schema).credential TO \(role);
        GRANT SELECT (\(pinColumns)) ON \(schema).pin TO \(role);
        GRANT SELECT ON \(schema).switchboard_migration TO \(role)
        """
    }
}
