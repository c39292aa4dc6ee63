import Foundation
import GRDB
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

/// A store on a full disk, and a store this process may not write.
@Suite("Full and read-only stores", .serialized, .onOwnThreads)
struct FullAndReadOnlyTests {
    @Test("a full disk (SQLITE_FULL) says there is no space on the device holding the file, and the write changes nothing")
    func full() throws {
        let fixture = try Fixture()
        try Sample.signIn([Sample.adaGitHub], into: fixture.database, session: terminal1)
        let before = try fixture.dump()
        // SQLite's own limit on the file's size: the honest way to make a write find the disk full.
        try fixture.database.writer.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 1
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
        }
        let big = LinkedIdentity(
            identity: Identity(provider: "github", subject: "999"), displayName: String(repeating: "Grace Hopper ", count: 4000), email: nil)
        let error = #expect(throws: StoreError.self) {
            for _ in 0..<20 { _ = try fixture.database.signIn(big, mode: .signIn, session: terminal2) }
        }
        let path = fixture.database.path
        #expect(error == .unavailable(path: path, detail: SQLiteEngine.noSpace(path)))
        #expect(error?.description.contains("no space left on the device holding \(path)") == true, "\(String(describing: error))")
        #expect(try fixture.dump() == before)
    }

    @Test("a file that cannot be made for want of space says so, naming it")
    func noSpaceToCreate() {
        #expect(SQLiteEngine.cannotOpen("/data/switchboard.sqlite", ENOSPC)
            == "no space left on the device holding /data/switchboard.sqlite; nothing was changed. Free some space and try again")
        #expect(SQLiteEngine.cannotOpen("/data/switchboard.sqlite", EACCES) == "cannot open: Permission denied")
    }

    @Test("a store this process may not write opens read-only for reading; every write says the store is read-only, naming it, and changes nothing")
    func readOnly() throws {
        let fixture = try Fixture()
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: fixture.database, session: terminal1)
        let path = fixture.database.path
        _ = try fixture.database.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        let before = try fixture.dump()
        let bytes = contents(path)
        try Unwritable.make(path)
        defer { Unwritable.undo(path) }

        #expect(throws: StoreError.self) { try AppDatabase(testing: path) }
        let database = try AppDatabase(testing: path, access: .readOnlyIfUnwritable)
        #expect(database.isReadOnly)
        #expect(try database.accounts().map(\.name).sorted() == ["Ada Lovelace", "Grace Hopper"])
        let refused = #expect(throws: StoreError.self) { try database.switchAccount(to: ids[1], session: terminal1) }
        #expect(refused == .unavailable(path: path, detail: AppDatabase.readOnlyStore(path)))
        #expect(refused?.description.contains("the store is read-only (\(path))") == true)
        #expect(throws: StoreError.self) { try database.signOut(session: terminal1) }
        #expect(try dump(database) == before)
        #expect(contents(path) == bytes)
    }
}

/// Makes a file one this process may not write, even as root: immutable
/// (`chattr +i`) for root, who passes every permission bit, else mode 0400.
enum Unwritable {
    static func make(_ path: String) throws {
        if geteuid() == 0 {
            let result = try runProcessBlocking("/usr/bin/chattr", ["+i", path], timeout: 20)
            guard result.status == 0 else { throw StoreError.unavailable(path: path, detail: "chattr +i: \(result.stderr)") }
        } else {
            chmod(path, 0o400)
        }
    }

    static func undo(_ path: String) {
        if geteuid() == 0 { _ = try? runProcessBlocking("/usr/bin/chattr", ["-i", path], timeout: 20) } else { chmod(path, 0o600) }
    }
}
