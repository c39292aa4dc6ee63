import Foundation
import Synchronization

/// Held while one process refreshes an identity's tokens, so that no other
/// process (or task) spends the same refresh token meanwhile: with a
/// provider that rotates refresh tokens, the second one would be refused
/// and taken for a revocation. An advisory lock (`flock`) on a file beside
/// the database (`switchboard.sqlite-refresh.lock`, mode 0600, empty); the
/// system releases it if the holder dies. Release it with `release()`.
public final class RefreshLock: Sendable {
    private let descriptor: Mutex<Int32?>

    fileprivate init(_ descriptor: Int32) { self.descriptor = Mutex(descriptor) }

    /// Lets the next waiter in. Calling it again does nothing.
    public func release() {
        descriptor.withLock { held in
            if let fd = held { close(fd) }
            held = nil
        }
    }

    deinit { release() }
}

extension AppDatabase {
    /// The file `lockRefreshes` locks.
    public var refreshLockPath: String { path + "-refresh.lock" }

    /// Waits (checking every 20 ms, without blocking a thread) until no
    /// other holder has the refresh lock of this database, then holds it.
    /// Throws `unavailable` when it is still held after `timeout` seconds,
    /// or cannot be opened.
    public func lockRefreshes(timeout: Double = 60) async throws(StoreError) -> RefreshLock {
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
        return RefreshLock(fd)
    }
}
