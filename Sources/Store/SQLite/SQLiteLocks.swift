import Dispatch
import Foundation
import GRDB
import Synchronization
import SwitchboardCore

extension SQLiteEngine {
    /// The file `lockRefreshes` locks: one for every identity of the file.
    var refreshLockPath: String { path + "-refresh.lock" }

    /// An `flock` on `switchboard.sqlite-refresh.lock` beside the file (mode
    /// 0600, empty), checked every 20 ms without blocking a thread.
    func lockRefreshes(of identity: Identity, timeout: Double) async throws(StoreError) -> RefreshLock {
        let file = refreshLockPath
        let fd = open(file, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .unavailable(path: file, detail: "cannot open: \(String(cString: strerror(errno)))") }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            guard error == EWOULDBLOCK || error == EINTR, Date() < deadline else {
                let reason = error == EWOULDBLOCK
                    ? "another Switchboard has been refreshing tokens for \(Int(timeout)) s; try again" : String(cString: strerror(error))
                close(fd)
                throw .unavailable(path: file, detail: reason)
            }
            do { try await Task.sleep(for: .milliseconds(20)) } catch {
                close(fd)
                throw .unavailable(path: file, detail: "cancelled while waiting for the refresh lock")
            }
        }
        return RefreshLock { close(fd) }
    }

    /// A read-only connection of the follower's own, which reads only when
    /// `PRAGMA data_version` says somebody committed since its last look.
    func follower() throws(StoreError) -> any ChangeFollower {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(Self.busyTimeout)
            configuration.label = "switchboard-changes"
            // It reads the newest events and a few accounts: a small cache
            // does, and a catch-up's scan of a long backlog does not grow it.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -256") }
            // As the store itself reads a file in a folder this process may not write.
            return SQLiteFollower(connection: try DatabaseQueue(path: Self.readOnlyLocation(path), configuration: configuration))
        } catch {
            throw storeError(error)
        }
    }

    func watch(on queue: DispatchQueue, _ events: @escaping @Sendable (ChangeWatchEvent) -> Void) throws(StoreError) -> any ChangeWatch {
        try FileChangeWatch(database: path, queue: queue, events: events)
    }
}

/// The SQLite follower: its own read-only connection and the data version last seen.
final class SQLiteFollower: ChangeFollower {
    let connection: DatabaseQueue
    private let version = Mutex<Int64?>(nil)

    init(connection: DatabaseQueue) { self.connection = connection }

    func readIfChanged<T>(_ body: (any SQLConnection) throws -> T) throws -> T? {
        let seen = version.withLock { $0 }
        let (result, now): (T?, Int64) = try connection.read { db in
            let now = try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
            guard now != seen else { return (nil, now) }
            return (try body(SQLiteConnection(db: db)), now)
        }
        version.withLock { $0 = now }
        return result
    }

    /// What a long read (a catch-up's scan of the backlog) left cached goes.
    func releaseMemory() { connection.releaseMemory() }
}
