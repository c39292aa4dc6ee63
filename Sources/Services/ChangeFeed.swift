import Dispatch
import Store
import Synchronization
import SwitchboardCore
#if canImport(Glibc)
    import Glibc
#endif

/// Publishes on a bus what other processes write to the store, as they
/// commit, as the same typed events this process's own writes publish
/// (`UserStatusChanged` with reason `.external`, `AccountsChanged`,
/// `IdentityStateChanged`), so subscribers need no code of their own for it.
///
/// Woken by inotify on the database's folder: every Switchboard write
/// touches `ChangeSignal`'s file once it has committed, and SQLite writes the
/// `-wal` file on every commit, whoever makes it. A wake-up reads the event
/// log from its cursor, and only when `PRAGMA data_version` says someone
/// committed (`ChangeReader`). A commit by another program becomes visible
/// a moment after its last write to the `-wal` file (when the shared-memory
/// index is updated, which inotify does not see), so each wake-up also
/// looks again a few times over the next 85 ms. Nothing polls: when nobody
/// writes, the feed causes no wake-ups.
public final class ChangeFeed: Sendable {
    private let reader: ChangeReader
    private let bus: NotificationBus
    private let onError: @Sendable (StoreError) -> Void
    private let queue = DispatchQueue(label: "switchboard.change-feed")
    private let watch: Mutex<(descriptor: Int32, source: (any DispatchSourceRead)?)>
    /// The files whose changes mean a commit: the database and its journals.
    private let names: Set<String>
    /// The looks after a wake-up, in milliseconds after the one before.
    static let lookAgain = [1, 4, 16, 64]
    /// Counts wake-ups: a look due after an older one is dropped.
    private let wakeUps = Mutex(0)

    /// Starts watching `database`'s folder, from the newest event now in its
    /// log, publishing the status changes of `sessions` (and every accounts
    /// and identity change). `onError` hears of a read that failed (the
    /// feed goes on).
    public init(
        database: AppDatabase, bus: NotificationBus, sessions: ChangeReader.Sessions = .all,
        onError: @escaping @Sendable (StoreError) -> Void = { _ in }
    ) throws(StoreError) {
        reader = try ChangeReader(database, following: sessions)
        self.bus = bus
        self.onError = onError
        let (folder, file) = Self.split(database.path)
        names = [file, file + "-wal", file + "-journal", ChangeSignal.name(forDatabase: file)]
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        let events = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
        guard descriptor >= 0, inotify_add_watch(descriptor, folder, events) >= 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw .unavailable(path: folder, detail: "cannot watch the folder for other programs' changes: \(reason)")
        }
        watch = Mutex((descriptor, nil))
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in self?.wake() }
        watch.withLock { $0.source = source }
        source.resume()
    }

    deinit { cancel() }

    /// Stops watching. Safe to call twice.
    public func cancel() {
        watch.withLock { watch in
            guard let source = watch.source else { return }
            let descriptor = watch.descriptor
            source.setCancelHandler { close(descriptor) }
            source.cancel()
            watch.source = nil
        }
    }

    /// Reads what inotify has; publishes the store's new changes if any of
    /// the database's files changed. Runs on `queue`.
    private func wake() {
        let descriptor = watch.withLock { $0.descriptor }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var relevant = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            // An overflowed queue lost events: look, to be safe.
            relevant = relevant || Self.events(in: buffer[..<count]).contains { event in
                event.mask & UInt32(IN_Q_OVERFLOW) != 0 || names.contains(event.name)
            }
        }
        guard relevant else { return }
        publishChanges()
        look(again: 0, after: wakeUps.withLock { $0 += 1; return $0 })
    }

    /// Schedules look number `step` after wake-up number `wakeUp`, each
    /// followed by the next, unless a later wake-up took over.
    private func look(again step: Int, after wakeUp: Int) {
        guard step < Self.lookAgain.count else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(Self.lookAgain[step])) { [weak self] in
            guard let self, self.wakeUps.withLock({ $0 }) == wakeUp, self.isWatching else { return }
            self.publishChanges()
            self.look(again: step + 1, after: wakeUp)
        }
    }

    private var isWatching: Bool { watch.withLock { $0.source != nil } }

    /// Publishes what other processes committed since the last look. Runs on `queue`.
    private func publishChanges() {
        let changes: [StoreChange]
        do {
            changes = try reader.changes()
        } catch {
            return onError(error)
        }
        for change in changes {
            switch change {
            case .status(let event): bus.publish(event)
            case .accounts(let event): bus.publish(event)
            case .identity(let event): bus.publish(event)
            }
        }
    }

    /// The masks and names in a buffer of `inotify_event`s.
    static func events(in bytes: ArraySlice<UInt8>) -> [(mask: UInt32, name: String)] {
        var events: [(mask: UInt32, name: String)] = []
        let header = MemoryLayout<inotify_event>.size
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset + header <= raw.count {
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + header - 4, as: UInt32.self))
                let name = raw[(offset + header)..<min(raw.count, offset + header + length)].prefix { $0 != 0 }
                events.append((mask, String(decoding: name, as: UTF8.self)))
                offset += header + length
            }
        }
        return events
    }

    /// A path's folder (`.` when it has none) and file name.
    static func split(_ path: String) -> (folder: String, file: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
