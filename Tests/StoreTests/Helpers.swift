import Foundation
import GRDB
import Testing
import TestSupport
@testable import Store
import SwitchboardCore

/// The store's two engines, for rule tests that run on both from one body
/// (`@Test(arguments: Engine.allCases)`).
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }
}

/// A fresh store: a database file in its own temporary folder, or a fresh
/// schema in the suite's database on the test run's PostgreSQL server.
final class Fixture {
    let folder = TemporaryFolder()
    let engine: Engine
    let location: StoreLocation
    let database: AppDatabase
    /// The table a failure was injected on (PostgreSQL's triggers are per table).
    private var failing: String?

    init(_ engine: Engine = .sqlite, suite: String = #fileID) throws {
        self.engine = engine
        switch engine {
        case .sqlite: location = .file(folder.file("data/switchboard.sqlite"))
        case .postgres: location = .server(try TestPostgres.freshStore(suite: suite))
        }
        database = try AppDatabase(testing: location)
    }

    deinit { folder.remove() }

    /// Another connection to the same store, as a restarted program (or another station) opens it.
    func reopen() throws -> AppDatabase { try AppDatabase(testing: location) }

    /// Every row of every table, as text: equal dumps mean nothing changed.
    func dump() throws -> String { try StoreTests.dump(database) }

    /// The rows of `sql` (run as is, outside the rules), each cell as text.
    func rows(_ sql: String) throws -> [[String]] { try StoreTests.rows(database, sql) }

    /// The first cell of `sql`'s first row, as an integer.
    func count(_ sql: String) throws -> Int { Int(try rows(sql).first?.first ?? "") ?? -1 }

    /// Runs `sql` as one write, outside the rules.
    func execute(_ sql: String) throws { _ = try database.engine.write { db in try db.execute(sql) } }

    /// Makes every later `operation` (INSERT, UPDATE, DELETE) on `table`
    /// fail, as if the disk failed in the middle of a named write.
    func failNext(_ operation: String, on table: String) throws {
        switch engine {
        case .sqlite:
            try database.writer.writeWithoutTransaction { db in
                try db.execute(sql: """
                    CREATE TEMP TRIGGER injected_failure BEFORE \(operation) ON main.\(table)
                    BEGIN SELECT RAISE(ABORT, 'injected failure'); END
                    """)
            }
        case .postgres:
            failing = table
            try execute("""
                CREATE OR REPLACE FUNCTION injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'injected failure'; END $$;
                CREATE TRIGGER injected_failure BEFORE \(operation) ON \(table) FOR EACH ROW EXECUTE FUNCTION injected_failure()
                """)
        }
    }

    func clearFailure() throws {
        switch engine {
        case .sqlite: try database.writer.writeWithoutTransaction { db in try db.execute(sql: "DROP TRIGGER temp.injected_failure") }
        case .postgres: try execute("DROP TRIGGER injected_failure ON \(failing ?? "event")")
        }
    }
}

extension AppDatabase {
    /// The GRDB writer of a SQLite store, for tests of SQLite's own behaviour.
    var writer: any DatabaseWriter { (engine as! SQLiteEngine).writer }
}

/// SHA-free fingerprint of a file's bytes, for "nothing was changed" checks.
func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

let terminal1 = SessionKey("pts/1")!
let terminal2 = SessionKey("pts/2")!

/// The rows of `sql`, each cell as text.
func rows(_ database: AppDatabase, _ sql: String) throws -> [[String]] {
    try database.engine.read { db in
        try db.map(sql) { row in (0..<row.columnCount).map { row.rendered($0) } }
    }
}

/// Every row of every table of `database`, as text: equal dumps mean nothing changed.
func dump(_ database: AppDatabase) throws -> String {
    var lines: [String] = []
    for table in ["account", "identity", "credential", "session", "favourite", "providerData", "pin", "event", "station"] {
        for row in try rows(database, "SELECT * FROM \(table) ORDER BY 1, 2") {
            lines.append("\(table) \(row.joined(separator: " | "))")
        }
    }
    return lines.joined(separator: "\n")
}
