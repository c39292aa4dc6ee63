import Foundation
import GRDB
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

@Suite("Opening the database", .onOwnThreads)
struct OpeningTests {
    @Test("migrations run from empty: every table, the application id, WAL, synchronous=NORMAL, busy timeout")
    func migrateFromEmpty() throws {
        let fixture = try Fixture()
        let (tables, applicationID, journal, synchronous, busyTimeout) = try fixture.database.writer.read { db in
            (try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY name"),
             try Int32.fetchOne(db, sql: "PRAGMA application_id"),
             try String.fetchOne(db, sql: "PRAGMA journal_mode"),
             try Int.fetchOne(db, sql: "PRAGMA synchronous"),
             try Int.fetchOne(db, sql: "PRAGMA busy_timeout"))
        }
        #expect(tables == ["account", "credential", "event", "favourite", "identity", "pin", "providerData", "session", "station"])
        #expect(applicationID == 0x5357_4244)
        #expect(journal == "wal")
        #expect(synchronous == 1)
        #expect((busyTimeout ?? 0) > 0)
        // Opening again migrates nothing and keeps the data.
        try Sample.signIn([Sample.adaGitHub], into: fixture.database, session: terminal1)
        let again = try AppDatabase(testing: fixture.database.path)
        #expect(try again.accounts().map(\.name) == ["Ada Lovelace"])
    }

    @Test("a database from before the accounts' index gets it on open and keeps its accounts")
    func upgradesV1() throws {
        let folder = TemporaryFolder()
        let path = folder.file("switchboard.sqlite")
        let old = try DatabaseQueue(path: path)
        try migrator.migrate(old, upTo: StoreSchema.migrations[0])
        try old.write { try $0.execute(sql: "INSERT INTO account (name, createdAt, useCount) VALUES ('Ada Lovelace', '2026-01-01 00:00:00.000', 3)") }
        try old.close()

        let database = try AppDatabase(testing: path)
        let indexes = try database.writer.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'account'") }
        #expect(indexes.contains("account_listed"), "v2's index, holding the name since v6")
        #expect(try database.accounts().map(\.name) == ["Ada Lovelace"])
    }

    @Test("eight opens of one new file at the same moment all succeed, and the file is migrated once, whole")
    func concurrentCreation() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        for round in 0..<6 {
            let path = folder.file("new-\(round).sqlite")
            let outcomes = await withTaskGroup(of: String?.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do {
                            _ = try await offThePool { try AppDatabase(testing: path) }
                            return nil
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
            }
            #expect(outcomes.isEmpty, "round \(round): \(outcomes)")
            let applied = try await AppDatabase(testing: path).writer.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
            #expect(applied.sorted() == StoreSchema.migrations.sorted())
        }
    }

    @Test("the folder is made 0700 and the file 0600, WAL files included")
    func fileModes() throws {
        let fixture = try Fixture()
        try Sample.signIn([Sample.adaGitHub], into: fixture.database, session: terminal1)
        let folder = (fixture.database.path as NSString).deletingLastPathComponent
        #expect(try mode(folder) == 0o700)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: fixture.database.path + suffix) {
            #expect(try mode(fixture.database.path + suffix) == 0o600, "\(suffix)")
        }
        #expect(FileManager.default.fileExists(atPath: fixture.database.path + "-wal"))
    }

    @Test("an existing database readable by others is made 0600 on open")
    func tightensMode() throws {
        let fixture = try Fixture()
        chmod(fixture.database.path, 0o644)
        _ = try AppDatabase(testing: fixture.database.path)
        #expect(try mode(fixture.database.path) == 0o600)
    }

    @Test("a database of something else is refused and left as it was")
    func notOurs() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("other.sqlite")
        try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')") }
        let before = contents(path)
        #expect(throws: StoreError.notSwitchboard(path: path)) { try AppDatabase(testing: path) }
        #expect(contents(path) == before)
    }

    @Test("a file that is not a database is refused as damaged and left as it was")
    func garbage() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("garbage.sqlite")
        let bytes = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StoreError.self) { try AppDatabase(testing: path) }
        guard case .corrupt(let named, _) = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(named == path)
        #expect(error?.description.contains(path) == true)
        #expect(contents(path) == bytes)
    }

    @Test("a database from a newer Switchboard is refused and left as it was")
    func newer() throws {
        let fixture = try Fixture()
        try fixture.database.writer.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
        }
        _ = try fixture.database.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        let before = contents(fixture.database.path)
        #expect(throws: StoreError.newerSchema(path: fixture.database.path, unknown: ["v99: from the future"])) {
            try AppDatabase(testing: fixture.database.path)
        }
        #expect(contents(fixture.database.path) == before)
    }

    @Test("a folder that cannot be created is reported by name")
    func unwritable() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try Data().write(to: URL(fileURLWithPath: folder.file("file")))
        let path = folder.file("file/sub/switchboard.sqlite")
        let error = #expect(throws: StoreError.self) { try AppDatabase(testing: path) }
        #expect(error?.description.contains(folder.file("file/sub")) == true)
    }

    @Test("a link to a file that is not a Switchboard database is refused by name and what is there, and the file keeps its bytes and mode",
          arguments: ["text", "empty", "other database", "garbage"])
    func foreignLink(kind: String) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let target = folder.file("precious")
        switch kind {
        case "text": try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: target))
        case "empty": try Data().write(to: URL(fileURLWithPath: target))
        case "other database":
            try DatabaseQueue(path: target).write { try $0.execute(sql: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')") }
        default: try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: target))
        }
        chmod(target, 0o644)
        let path = folder.file("switchboard.sqlite")
        #expect(symlink(target, path) == 0)
        let before = contents(target)
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

        let error = #expect(throws: StoreError.self) { try AppDatabase(testing: path) }
        let message = error?.description ?? ""
        #expect(message.hasPrefix(path + ": is a link to " + target), "\(message)")
        #expect(message.contains("not a Switchboard database") && message.contains("nothing was changed"), "\(message)")
        if kind == "empty" { #expect(message.contains("an empty file"), "\(message)") }
        #expect(contents(target) == before, "the target's bytes")
        #expect(try mode(target) == 0o644, "the target's mode")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == listing, "no file made beside it")
        // Read-only, as status and accounts open it, the same.
        #expect(throws: StoreError.self) { try AppDatabase(testing: path, access: .readOnlyIfUnwritable) }
        #expect(contents(target) == before)
    }

    @Test("a link to nothing is refused, and nothing is created through it")
    func danglingLink() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let target = folder.file("nowhere.sqlite"), path = folder.file("switchboard.sqlite")
        #expect(symlink(target, path) == 0)
        let error = #expect(throws: StoreError.self) { try AppDatabase(testing: path) }
        #expect(error?.description.contains("is a link to \(target), which does not exist") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("a link to a Switchboard database opens it")
    func linkToOurs() throws {
        let fixture = try Fixture()
        try Sample.signIn([Sample.adaGitHub], into: fixture.database, session: terminal1)
        let path = fixture.folder.file("link.sqlite")
        #expect(symlink(fixture.database.path, path) == 0)
        #expect(try AppDatabase(testing: path).accounts().map(\.name) == ["Ada Lovelace"])
    }

    @Test("default path: --database, then SWITCHBOARD_DATABASE, then XDG_DATA_HOME, then ~/.local/share")
    func location() {
        #expect(DatabaseLocation.resolve(explicit: "/x.sqlite", environment: ["SWITCHBOARD_DATABASE": "/y"]) == "/x.sqlite")
        #expect(DatabaseLocation.resolve(explicit: nil, environment: ["SWITCHBOARD_DATABASE": "/y", "XDG_DATA_HOME": "/d"]) == "/y")
        #expect(DatabaseLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"]) == "/d/switchboard/switchboard.sqlite")
        #expect(DatabaseLocation.resolve(explicit: nil, environment: ["XDG_DATA_HOME": "relative", "HOME": "/h"]) == "/h/.local/share/switchboard/switchboard.sqlite")
    }
}

private func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! NSNumber).intValue & 0o777
}
