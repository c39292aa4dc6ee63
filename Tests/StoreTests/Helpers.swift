import Foundation
import GRDB
import TestSupport
@testable import Store
import SwitchboardCore

/// A fresh database in its own temporary folder.
final class Fixture {
    let folder = TemporaryFolder()
    let database: AppDatabase

    init() throws { database = try AppDatabase(testing: folder.file("data/switchboard.sqlite")) }

    deinit { folder.remove() }

    /// Every row of every table, as text: equal dumps mean nothing changed.
    func dump() throws -> String { try StoreTests.dump(database) }

    /// Makes every later `sql` statement on `table` fail, as if the disk
    /// failed in the middle of a named write.
    func failNext(_ operation: String, on table: String) throws {
        try database.writer.writeWithoutTransaction { db in
            try db.execute(sql: """
                CREATE TEMP TRIGGER injected_failure BEFORE \(operation) ON main.\(table)
                BEGIN SELECT RAISE(ABORT, 'injected failure'); END
                """)
        }
    }

    func clearFailure() throws {
        try database.writer.writeWithoutTransaction { db in try db.execute(sql: "DROP TRIGGER temp.injected_failure") }
    }
}

/// SHA-free fingerprint of a file's bytes, for "nothing was changed" checks.
func contents(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

let terminal1 = SessionKey("pts/1")!
let terminal2 = SessionKey("pts/2")!

/// Every row of every table of `database`, as text: equal dumps mean nothing changed.
func dump(_ database: AppDatabase) throws -> String {
    try database.writer.read { db in
        var lines: [String] = []
        for table in ["account", "identity", "credential", "session", "favourite", "providerData", "pin", "event"] {
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY 1, 2") {
                lines.append("\(table) \(row)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
