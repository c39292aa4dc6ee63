import Dispatch
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// SQLite's change signal, watched: inotify on the database's folder. Every
/// Switchboard write touches `ChangeSignal`'s file once it has committed,
/// and SQLite writes the `-wal` file on every commit, whoever makes it. A
/// commit by another program becomes visible a moment after its last write
/// to the `-wal` file (when the shared-memory index is updated, which
/// inotify does not see), so a feed looks again after each wake-up
/// (`looksAgain`). Nothing polls: when nobody writes, there is no wake-up.
///
/// A long transaction (another program's bulk insert) writes the `-wal`
/// file thousands of times a second before it commits, and each write is
/// an inotify event. So after a wake-up the watch stops reading for
/// `spacing`: meanwhile the kernel folds the same file's events into one,
/// read when it looks again. A wake-up comes at once, then at most one per
/// `spacing` for as long as the writes go on, and always one after the last.
final class FileChangeWatch: ChangeWatch {
    private let watch: Mutex<(descriptor: Int32, source: (any DispatchSourceRead)?, resting: Bool)>
    private let queue: DispatchQueue
    /// How long the watch rests after a wake-up.
    static let spacing = DispatchTimeInterval.milliseconds(10)
    /// The files whose changes mean a commit: the database and its journals.
    private let names: Set<String>
    private let events: @Sendable (ChangeWatchEvent) -> Void
    var looksAgain: Bool { true }

    init(database path: String, queue: DispatchQueue, events: @escaping @Sendable (ChangeWatchEvent) -> Void) throws(StoreError) {
        let (folder, file) = Self.split(path)
        names = [file, file + "-wal", file + "-journal", ChangeSignal.name(forDatabase: file)]
        self.events = events
        self.queue = queue
        let descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        let mask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO)
        guard descriptor >= 0, inotify_add_watch(descriptor, folder, mask) >= 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw .unavailable(path: folder, detail: "cannot watch the folder for other programs' changes: \(reason)")
        }
        watch = Mutex((descriptor, nil, false))
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in self?.wake() }
        watch.withLock { $0.source = source }
        source.resume()
    }

    deinit { cancel() }

    func cancel() {
        watch.withLock { watch in
            guard let source = watch.source else { return }
            let descriptor = watch.descriptor
            source.setCancelHandler { close(descriptor) }
            source.cancel()
            // A resting source is resumed, so that its cancellation completes.
            if watch.resting { source.resume() }
            watch.resting = false
            watch.source = nil
        }
    }

    /// Reads what inotify has; reports a wake-up if any of the database's files changed.
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
        events(.wake)
        rest()
    }

    /// Stops reading for `spacing`, then reads what came meanwhile (folded by the kernel).
    private func rest() {
        let resting = watch.withLock { watch -> Bool in
            guard let source = watch.source, !watch.resting else { return false }
            source.suspend()
            watch.resting = true
            return true
        }
        guard resting else { return }
        queue.asyncAfter(deadline: .now() + Self.spacing) { [weak self] in
            self?.watch.withLock { watch in
                guard watch.resting else { return }
                watch.resting = false
                watch.source?.resume()
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
