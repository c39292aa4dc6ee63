#if canImport(Glibc)
    import Glibc
#endif

/// The file beside the database that every write touches once it has
/// committed (`switchboard.sqlite-changed`, empty but for one byte), so that
/// a change feed's wake-up always comes after the change is visible. SQLite's
/// own `-wal` writes also wake feeds, but a commit shows only a moment after
/// its last one, and programs that are not Switchboard touch nothing else.
public enum ChangeSignal {
    /// The signal file's name for the database file named `file`.
    public static func name(forDatabase file: String) -> String { file + "-changed" }

    /// Tells feeds that the database at `path` changed. Best effort: a
    /// folder that cannot take the file only makes feeds a little slower.
    static func raise(for path: String) {
        let descriptor = open(name(forDatabase: path), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { return }
        var byte: UInt8 = 0x0A
        _ = pwrite(descriptor, &byte, 1, 0)
        close(descriptor)
    }
}
