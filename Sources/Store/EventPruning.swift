import Foundation
import Synchronization

// A history that does not grow forever: the oldest events go, a small batch
// at a time. On SQLite never one that a running change reader of the
// machine has not read yet (its mark says where it is). On a shared store
// the events older than the cutoff go whoever has read them: a station away
// that long reads the accounts and who is active afresh when it is back.

extension AppDatabase {
    /// The file whose locks mark where each running change reader is
    /// (`ReaderMark`); nil on a shared store, which keeps no marks.
    public var readerMarksPath: String? { engine.readerMarksPath }

    /// Deletes at most `limit` of the oldest events, those logged before
    /// `cutoff`, and none that a change reader of any process has not read
    /// yet; returns how many went (0 when none may go). One short
    /// transaction: call it again, between other work, for more.
    /// Whether this process may delete events: on a shared store only the
    /// owner of its tables (or a role that is a member of it) may; a file's
    /// every writer may.
    public func mayPruneEvents() throws(StoreError) -> Bool {
        try read { db in try Self.mayPrune(db) }
    }

    static func mayPrune(_ db: any SQLConnection) throws -> Bool {
        guard db.isShared else { return true }
        return try db.value("SELECT pg_has_role(current_user, relowner, 'USAGE') FROM pg_class WHERE oid = 'event'::regclass", as: Bool.self) == true
    }

    /// On a shared store only the owner of its tables prunes (a station's
    /// role may not delete events): for any other role this is 0 at once.
    public func pruneEvents(loggedBefore cutoff: Date, limit: Int = 500) throws(StoreError) -> Int {
        // Most looks find nothing old enough: they read, and write nothing (no
        // transaction to wait for, no reader woken).
        let (oldest, mayPrune) = try read { db in
            (try db.value("SELECT at FROM event ORDER BY id LIMIT 1", as: Date.self), try Self.mayPrune(db))
        }
        guard mayPrune, let oldest, oldest < cutoff else { return 0 }
        // Without the marks there is no knowing what the machine's readers still need.
        var marks: Int32?
        if let path = readerMarksPath {
            guard let opened = ReaderMark.openForPruning(path) else { return 0 }
            marks = opened
        }
        defer { if let marks { close(marks) } }
        return try write { db in
            // The oldest events, oldest first, as long as they are old enough.
            var end: Int64?
            var old = true
            try db.each("SELECT id, at FROM event ORDER BY id LIMIT $1", [max(0, limit)]) { row in
                guard old, try row.date(1) < cutoff else { return old = false }
                end = try row.integer(0) + 1
            }
            guard let end else { return 0 }
            let bound = marks.map { ReaderMark.lowest(in: $0, below: end) } ?? end
            return try db.execute("DELETE FROM event WHERE id < $1", [bound])
        }
    }
}

/// Where one change reader is in the log, for pruning to see from any
/// process: a read lock on one byte of the marks file beside the database,
/// at the offset of the first event id it has not read. The lock is an
/// open file description's own (`F_OFD_SETLK`): readers in one process do
/// not merge or drop each other's, and the system drops a reader's when
/// its process ends, however it ends. Pruning deletes only events below
/// the lowest mark.
///
/// A reader that cannot open the file (a folder it may not write, where it
/// is missing) has no mark; a process that may not write there cannot
/// prune either.
final class ReaderMark: Sendable {
    private let descriptor: Int32
    private let offset = Mutex<Int64?>(nil)

    /// Opens (making, when it may) the marks file at `path`.
    init(path: String) {
        var fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if fd < 0 { fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        descriptor = fd
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Marks `firstUnread` as the first event this reader has not read.
    func move(to firstUnread: Int64) {
        guard descriptor >= 0 else { return }
        offset.withLock { held in
            guard held != firstUnread else { return }
            // The new mark before the old goes: never a moment without one.
            if Self.lock(descriptor, F_RDLCK, at: firstUnread), let old = held { _ = Self.lock(descriptor, F_UNLCK, at: old) }
            held = firstUnread
        }
    }

    /// The marks file opened for pruning, or nil when it cannot be.
    static func openForPruning(_ path: String) -> Int32? {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        return fd >= 0 ? fd : nil
    }

    /// `end` lowered to the lowest mark below it: no reader still needs an
    /// event below the result.
    static func lowest(in descriptor: Int32, below end: Int64) -> Int64 {
        var bound = end
        while bound > 0 {
            var probe = flock()
            probe.l_type = Int16(F_WRLCK)
            probe.l_whence = Int16(SEEK_SET)
            probe.l_start = 0
            probe.l_len = off_t(bound)
            // A mark that cannot be seen might be anywhere: prune nothing.
            guard fcntl(descriptor, getOFDLock, &probe) == 0 else { return 0 }
            guard probe.l_type != Int16(F_UNLCK) else { return bound }
            bound = min(bound - 1, Int64(probe.l_start))
        }
        return 0
    }

    /// Takes (or, with `F_UNLCK`, drops) this description's lock on the byte at `offset`.
    private static func lock(_ descriptor: Int32, _ type: Int32, at offset: Int64) -> Bool {
        var range = flock()
        range.l_type = Int16(type)
        range.l_whence = Int16(SEEK_SET)
        range.l_start = off_t(offset)
        range.l_len = 1
        return fcntl(descriptor, setOFDLock, &range) == 0
    }

    /// Linux's open file description locks (`F_OFD_GETLK`, `F_OFD_SETLK`).
    private static let getOFDLock: Int32 = 36, setOFDLock: Int32 = 37
}
