#if canImport(Glibc)
    import Glibc
#endif

/// Holds what the program writes to standard error while the launcher's
/// frame is on screen — it would land on top of the frame, and vanish with
/// the alternate screen — and writes it out once `release()` is called,
/// after the terminal is back.
final class HeldStandardError: @unchecked Sendable {
    private var saved: Int32 = -1
    private var file: UnsafeMutablePointer<FILE>?

    init() {
        guard let file = tmpfile() else { return }
        saved = dup(STDERR_FILENO)
        guard saved >= 0, dup2(fileno(file), STDERR_FILENO) >= 0 else {
            fclose(file)
            return
        }
        self.file = file
    }

    /// Puts standard error back and writes what was held to it. Safe to call twice.
    func release() {
        guard let file else { return }
        self.file = nil
        dup2(saved, STDERR_FILENO)
        close(saved)
        let descriptor = fileno(file)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            _ = buffer.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, count) }
            offset += off_t(count)
        }
        fclose(file)
    }
}
