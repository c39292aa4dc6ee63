#if canImport(Glibc)
    import Glibc
#endif

/// The file beside the database that every write rewrites once it has
/// committed (`switchboard.sqlite-changed`), so that a change feed's
/// wake-up always comes after the change is visible. SQLite's own `-wal`
/// writes also wake feeds, but a commit shows only a moment after its last
/// one, and programs that are not Switchboard touch nothing else.
///
/// Its one line is a stamp new at every write (the time in nanoseconds and
/// the writer's process id, 24 hex digits): the shell hook reads it with
/// the shell's own `read` at each prompt and asks for nothing more while it
/// is the stamp it saw last.
public enum ChangeSignal {
    /// The signal file's name for the database file named `file`.
    public static func name(forDatabase file: String) -> String { file + "-changed" }

    /// Tells feeds and hooks that the database at `path` changed (or what
    /// decides who acts, as a rule allowed). Best effort: a folder that
    /// cannot take the file only makes feeds a little slower.
    public static func raise(for path: String) {
        let descriptor = open(name(forDatabase: path), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { return }
        var bytes = Array(stamp().utf8)
        // One write of the whole line at its start: every stamp is as long, so nothing of the last is left.
        _ = pwrite(descriptor, &bytes, bytes.count, 0)
        close(descriptor)
    }

    /// A new stamp: 16 hex digits of the time in nanoseconds, 8 of the process id, a newline.
    static func stamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
        return hex(nanoseconds, digits: 16) + hex(UInt64(UInt32(bitPattern: getpid())), digits: 8) + "\n"
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
