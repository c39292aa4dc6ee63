import ConfigFile
import Dispatch
import Foundation
import GRDB
import Synchronization
import SwitchboardCore

/// The embedded engine: one SQLite file through GRDB, in WAL mode. It makes
/// the folder and file with tight modes, recognises whose file it is,
/// migrates, and serialises writes with SQLite's own write lock (token
/// refreshes with an `flock` beside the file); the change signal is a file
/// touched after each commit, watched with inotify.
final class SQLiteEngine: StoreEngine {
    let path: String
    let isReadOnly: Bool
    let writer: any DatabaseWriter
    /// The migrations this open applied.
    let migratedNow: [String]
    var location: String { path }
    var isShared: Bool { false }
    var readerMarksPath: String? { path + "-readers.lock" }

    /// Opens (creating when missing) the database at `path`; see `AppDatabase.init(path:access:)`.
    init(path: String, access: AppDatabase.Access) throws(StoreError) {
        self.path = path
        let (readOnly, mode, link) = try Self.prepareFile(at: path, access: access)
        isReadOnly = readOnly
        let companions = ["-wal", "-shm", "-journal"].map { path + $0 }
        let existing = Set(companions.filter { Self.exists($0) })
        do {
            (writer, migratedNow) = try Self.openWriter(
                path: path, readOnly: readOnly, tighten: mode.map { $0 & 0o777 != 0o600 } ?? false, link: link)
        } catch {
            // Refused (not ours, newer, damaged): the file gets its mode
            // back, and whatever SQLite made beside it goes again. Not when
            // it was only unavailable (busy, say): then another Switchboard
            // may have made those files since, and be using them.
            switch error {
            case .notSwitchboard, .newerSchema, .corrupt:
                if let mode { chmod(path, mode & 0o7777) }
                for companion in companions where !existing.contains(companion) { unlink(companion) }
            default:
                break
            }
            if let link, case .notSwitchboard = error { throw .unavailable(path: path, detail: Self.foreignLink(link, "another program's database")) }
            if let link, case .corrupt = error { throw .unavailable(path: path, detail: Self.foreignLink(link, "not a database")) }
            throw error
        }
    }

    func write<T>(_ body: (any SQLConnection) throws -> T, signal: (any SQLConnection) throws -> String?) throws -> T {
        let result = try writer.write { db in try body(SQLiteConnection(db: db)) }
        ChangeSignal.raise(for: path)
        return result
    }

    func writeUnannounced<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try writer.write { db in try body(SQLiteConnection(db: db)) }
    }

    func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try writer.read { db in try body(SQLiteConnection(db: db)) }
    }

    /// SQLite's cached pages: idle reading connections close, the others
    /// free what they can, as they are done.
    func releaseMemory() {
        if let pool = writer as? DatabasePool {
            pool.releaseMemoryEventually()
        } else if let queue = writer as? DatabaseQueue {
            queue.releaseMemory()
        }
    }

    func storeError(_ error: any Error) -> StoreError { Self.storeError(error, path: path) }

    /// Why a link at the database's path is refused: it leads to `target`,
    /// which is `what`.
    static func foreignLink(_ target: String, _ what: String) -> String {
        "is a link to \(target), which is \(what), not a Switchboard database; nothing was changed. "
            + "Remove the link, or point --database at a Switchboard database"
    }

    /// Checks whose the file is, then opens it: a pool for reading and
    /// writing, or a read-only queue. `tighten` makes the file 0600 once it
    /// is known to be ours (or new), before SQLite makes the files beside it.
    /// A `link` (the path is a symbolic link to it) must lead to a
    /// Switchboard database already: no file is made into one through a link.
    private static func openWriter(
        path: String, readOnly: Bool, tighten: Bool, link: String?
    ) throws(StoreError) -> (writer: any DatabaseWriter, migrated: [String]) {
        do {
            try checkOwnership(path: path, link: link)
            // Ours (or new): only its owner may read it, whatever made it.
            if tighten { chmod(path, 0o600) }
            var configuration = Configuration()
            configuration.busyMode = .timeout(busyTimeout)
            configuration.label = "switchboard"
            if readOnly {
                configuration.readonly = true
                let queue = try DatabaseQueue(path: readOnlyLocation(path), configuration: configuration)
                try queue.read { db in
                    let applied = try migrator.appliedIdentifiers(db)
                    let unknown = applied.subtracting(migrator.migrations)
                    if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: unknown.sorted()) }
                    if !applied.isSuperset(of: migrator.migrations) {
                        throw StoreError.unavailable(
                            path: path, detail: "the database needs an upgrade, and this process may not write it; nothing was changed")
                    }
                }
                return (queue, [])
            }
            configuration.prepareDatabase { db in
                // Deleted tokens are overwritten, not left in free pages.
                try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA secure_delete = ON")
                // Reads look up a few rows or scan an index in order: a
                // small cache does, and a scan of a big roster leaves no
                // more than that behind in each reading connection.
                if db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -512") }
            }
            let pool = try openPool(path: path, configuration: configuration)
            // No write transaction at every start when nothing is pending.
            if try pool.read({ try migrator.hasCompletedMigrations($0) }) { return (pool, []) }
            let before = try pool.read { try migrator.appliedIdentifiers($0) }
            try migrate(pool, from: before)
            let after = try pool.read { try migrator.appliedIdentifiers($0) }
            return (pool, StoreSchema.migrations.filter { after.contains($0) && !before.contains($0) })
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Opens the pool. Opening a brand-new file switches it to WAL, which
    /// takes a moment's exclusive lock that SQLite does not wait for:
    /// another Switchboard making the same file at once gets `SQLITE_BUSY`
    /// and tries again, for as long as SQLite's busy timeout would wait.
    private static func openPool(path: String, configuration: Configuration) throws -> DatabasePool {
        let deadline = Date().addingTimeInterval(busyTimeout)
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(20_000)
            }
        }
    }

    /// How long a connection waits for another's lock, in seconds.
    static let busyTimeout = 10.0

    /// Applies the pending migrations, alongside any other process opening
    /// the file at the same moment (two terminals started at once on a new
    /// file). Each migration is one transaction that records itself, so
    /// when two try the same one, the second rolls back with an error and
    /// nothing is half done; this then goes on from what is applied now.
    /// An error while nobody else makes progress is the error.
    private static func migrate(_ pool: DatabasePool, from before: Set<String>) throws {
        var applied = before
        while true {
            do {
                return try migrator.migrate(pool)
            } catch {
                let now = try pool.read { try migrator.appliedIdentifiers($0) }
                guard now.isStrictSuperset(of: applied) else { throw error }
                applied = now
            }
        }
    }

    /// Where a read-only connection opens `path`. SQLite reads a WAL-mode
    /// file only beside its `-shm` file, which it cannot make in a folder it
    /// may not write; with no `-wal` file there, everything is in the main
    /// file, and SQLite may read it as immutable (a URI filename).
    static func readOnlyLocation(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        guard Glibc.access(folder.isEmpty ? "." : folder, W_OK) != 0, !exists(path + "-wal"),
              let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
                  .addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#%")))
        else { return path }
        return "file:" + absolute + "?immutable=1"
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }


    /// Makes the folder (0700) and an empty file (0600) when missing, so
    /// SQLite never makes them with looser modes; the WAL and shared-memory
    /// files take the main file's mode. Refuses anything but a regular file.
    /// A folder named `switchboard` (Switchboard's own, as in the default
    /// location) is tightened to 0700; no other folder is touched. Returns
    /// whether the file must be opened read-only, the mode of a file
    /// this user owns and may change (nil otherwise), and, when the path is
    /// a symbolic link, where it leads. A link is followed only to a file
    /// that exists: nothing is created through one.
    ///
    /// An existing file is only looked at by its path, never opened here:
    /// SQLite's locks are POSIX record locks, which belong to the process,
    /// and closing any descriptor on the file drops them all. Another
    /// `AppDatabase` in this process would lose its shared lock, and another
    /// process closing its last connection would then believe itself the last
    /// user and delete the `-wal` and `-shm` files still in use here.
    private static func prepareFile(
        at path: String, access: AppDatabase.Access
    ) throws(StoreError) -> (readOnly: Bool, mode: mode_t?, link: String?) {
        let folder = (path as NSString).deletingLastPathComponent
        var folderInfo = stat()
        if !folder.isEmpty && stat(folder, &folderInfo) != 0 {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
                if code == Int(ENOSPC) || code == Int(EDQUOT) { throw .unavailable(path: folder, detail: noSpace(folder)) }
                throw .unavailable(path: folder, detail: "cannot create the folder: \(error.localizedDescription)")
            }
        } else if !folder.isEmpty {
            if let kind = ConfigFile.fileKind(folderInfo.st_mode), kind != "a folder" {
                throw .unavailable(path: folder, detail: "is \(kind), not a folder; nothing was changed")
            }
            if (folder as NSString).lastPathComponent == "switchboard", folderInfo.st_uid == geteuid(),
               folderInfo.st_mode & 0o077 != 0 {
                chmod(folder, folderInfo.st_mode & 0o700)
            }
        }
        let folderWritable = Glibc.access(folder.isEmpty ? "." : folder, W_OK) == 0

        var info = stat()
        var link: String?
        if lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
            guard stat(path, &info) == 0 else {
                throw .unavailable(path: path, detail: "is a link to \(target), which does not exist: no database is created through a link; nothing was changed")
            }
            link = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        }
        if stat(path, &info) != 0 {
            guard errno == ENOENT else { throw .unavailable(path: path, detail: "cannot open: \(String(cString: strerror(errno)))") }
            // New: made here, exclusively, and without opening it: closing a
            // descriptor would drop the locks of a connection that another
            // thread opened on the new file meanwhile.
            if mknod(path, S_IFREG | 0o600, 0) != 0 && errno != EEXIST {
                throw .unavailable(path: path, detail: cannotOpen(path))
            }
            guard stat(path, &info) == 0 else { throw .unavailable(path: path, detail: "cannot open: \(String(cString: strerror(errno)))") }
        }
        if let kind = ConfigFile.fileKind(info.st_mode) {
            throw .unavailable(path: path, detail: "is \(kind), not a database file; nothing was changed")
        }
        guard faccessat(AT_FDCWD, path, R_OK, AT_EACCESS) == 0 else {
            throw .unavailable(path: path, detail: "cannot open: \(String(cString: strerror(errno)))")
        }
        var readOnly = false
        if faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0 {
            guard access == .readOnlyIfUnwritable, errno == EACCES || errno == EROFS || errno == EPERM else {
                throw .unavailable(path: path, detail: "cannot open: \(String(cString: strerror(errno)))")
            }
            readOnly = true
        }
        if !folderWritable {
            // SQLite makes its -wal and -shm files beside the database.
            guard access == .readOnlyIfUnwritable else {
                throw .unavailable(path: folder, detail: "the folder is not writable, so the database cannot be changed")
            }
            readOnly = true
        }
        return (readOnly, !readOnly && info.st_uid == geteuid() ? info.st_mode : nil, link)
    }

    /// Refuses a database that belongs to something else or to a newer build,
    /// reading it through a read-only connection, because opening the pool
    /// would already switch a foreign file to WAL mode.
    /// Through a `link`, even an empty file (or an empty database) is
    /// refused: only what is already a Switchboard database is opened.
    private static func checkOwnership(path: String, link: String? = nil) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        try DatabaseQueue(path: readOnlyLocation(path), configuration: configuration).read { db in
            let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            // Another Switchboard making the file right now has committed
            // only the migrations' own table so far (before the first
            // migration, which sets the application id).
            let beingMade = try tables == ["grdb_migrations"] && Int.fetchOne(db, sql: "SELECT count(*) FROM grdb_migrations") == 0
            if applicationID == 0 && (tables.isEmpty || beingMade) {
                guard let link else { return }  // a new file
                var info = stat()
                let empty = stat(link, &info) == 0 && info.st_size == 0
                throw StoreError.unavailable(path: path, detail: foreignLink(link, empty ? "an empty file" : "an empty database"))
            }
            guard applicationID == switchboardApplicationID else { throw StoreError.notSwitchboard(path: path) }
            let known = Set(migrator.migrations)
            let unknown = try migrator.appliedIdentifiers(db).subtracting(known)
            if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: unknown.sorted()) }
        }
    }

    static func storeError(_ error: any Error, path: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if let error = error as? SQLDecodingError { return .corrupt(path: path, detail: error.description) }
        guard let error = error as? DatabaseError else {
            return .unavailable(path: path, detail: "\(error)")
        }
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .corrupt(path: path, detail: error.message ?? "\(error.resultCode)")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .unavailable(path: path, detail: "the database stayed busy (another Switchboard is writing); try again")
        case .SQLITE_FULL:
            return .unavailable(path: path, detail: noSpace(path))
        case .SQLITE_READONLY:
            return .unavailable(path: path, detail: AppDatabase.readOnlyStore(path))
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_IOERR:
            return .unavailable(path: path, detail: error.message ?? "\(error.resultCode)")
        default:
            return .unavailable(path: path, detail: error.message ?? "\(error)")
        }
    }

    /// What a full disk (SQLite's `SQLITE_FULL`, the system's ENOSPC or
    /// EDQUOT) is reported as.
    static func noSpace(_ path: String) -> String {
        "no space left on the device holding \(path); nothing was changed. Free some space and try again"
    }

    /// Why a file could not be created or opened: `errno`'s words, or, for a
    /// full disk, that there is no space on the device holding `path`.
    static func cannotOpen(_ path: String, _ code: Int32 = errno) -> String {
        code == ENOSPC || code == EDQUOT ? noSpace(path) : "cannot open: \(String(cString: strerror(code)))"
    }
}
