import Foundation
import GRDB
import Synchronization
import SwitchboardCore

/// The one owner of Switchboard's SQLite connection: it opens the file with
/// the right modes, recognises whose file it is, migrates, and offers the
/// named reads and writes. Every write is one transaction.
public final class AppDatabase: Sendable {
    /// Where the database file is.
    public let path: String
    let writer: DatabasePool
    /// Events this instance appended to the log that its change reader has
    /// not passed yet (nil while none follows it): its own writes are
    /// published by whoever made them, so a feed of other processes'
    /// changes skips them.
    let ownEvents = Mutex<Set<Int64>?>(nil)

    /// Opens (creating when missing) the database at `path`.
    ///
    /// A file that is not Switchboard's, is newer than this build, or is
    /// damaged is refused with a `StoreError` and left exactly as it was.
    public init(path: String) throws(StoreError) {
        self.path = path
        try Self.prepareFile(at: path)
        do {
            let ours = try Self.checkOwnership(path: path)
            // Ours (or new): only its owner may read it, whatever made it.
            chmod(path, 0o600)
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.label = "switchboard"
            configuration.prepareDatabase { db in
                // Deleted tokens are overwritten, not left in free pages.
                try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON")
            }
            writer = try DatabasePool(path: path, configuration: configuration)
            if ours {
                // Checked by its header: what remains is whether a newer build wrote it.
                let applied = try writer.read { try migrator.appliedIdentifiers($0) }
                let unknown = applied.subtracting(migrator.migrations)
                if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: unknown.sorted()) }
                if applied.isSuperset(of: migrator.migrations) { return }
            }
            try migrator.migrate(writer)
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Creates the folder (0700) and an empty file (0600) when missing, so
    /// SQLite never makes them with looser modes. The WAL and shared-memory
    /// files take the main file's mode.
    private static func prepareFile(at path: String) throws(StoreError) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw .unavailable(path: folder, detail: "cannot create the folder: \(error.localizedDescription)")
            }
        }
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .unavailable(path: path, detail: "cannot open: \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }

    /// Refuses a database that belongs to something else or to a newer build.
    /// Returns true when SQLite's header already names the file as ours
    /// (the application id, bytes 68–71), so that only the schema's version
    /// is left to check once it is open; otherwise reads it through a
    /// read-only connection, because opening the pool would already switch
    /// a foreign file to WAL mode.
    private static func checkOwnership(path: String) throws -> Bool {
        if headerApplicationID(path: path) == switchboardApplicationID { return true }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        try DatabaseQueue(path: path, configuration: configuration).read { db in
            let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            if applicationID == 0 && tables.isEmpty { return }  // a new file
            guard applicationID == switchboardApplicationID else { throw StoreError.notSwitchboard(path: path) }
            let known = Set(migrator.migrations)
            let unknown = try migrator.appliedIdentifiers(db).subtracting(known)
            if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: unknown.sorted()) }
        }
        return false
    }

    /// The application id in the header of the SQLite file at `path`, or
    /// nil when the file is shorter than a header or not SQLite's.
    static func headerApplicationID(path: String) -> Int32? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 100)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count == header.count, header.starts(with: Array("SQLite format 3\0".utf8)) else { return nil }
        return header[68..<72].reduce(0) { $0 << 8 | Int32($1) }
    }

    static func storeError(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        guard let error = error as? DatabaseError else {
            return .unavailable(path: path, detail: "\(error)")
        }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .corrupt(path: path, detail: error.message ?? "\(error.resultCode)")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .unavailable(path: path, detail: "the database stayed busy (another Switchboard is writing); try again")
        case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR, .SQLITE_FULL:
            return .unavailable(path: path, detail: error.message ?? "\(error.resultCode)")
        default:
            return .unavailable(path: path, detail: error.message ?? "\(error)")
        }
    }

    /// Runs one write transaction, mapping database errors to `StoreError`.
    /// While a change reader follows this database, the events the write
    /// appends are noted as this instance's own, before the commit (so no
    /// reader sees them first), and forgotten again if the commit fails.
    /// Once committed, readers are told that something changed.
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        var appended: [Int64] = []
        do {
            let result = try writer.write { db in
                let followed = ownEvents.withLock { $0 != nil }
                let before = followed ? try Int64.fetchOne(db, sql: "SELECT max(id) FROM event") ?? 0 : 0
                let result = try body(db)
                if followed {
                    appended = try Int64.fetchAll(db, sql: "SELECT id FROM event WHERE id > ?", arguments: [before])
                    ownEvents.withLock { $0?.formUnion(appended) }
                }
                return result
            }
            ChangeSignal.raise(for: path)
            return result
        } catch {
            if !appended.isEmpty { ownEvents.withLock { $0?.subtract(appended) } }
            throw Self.storeError(error, path: path)
        }
    }

    /// Runs one read, mapping database errors to `StoreError`.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try writer.read(body)
        } catch {
            throw Self.storeError(error, path: path)
        }
    }
}
