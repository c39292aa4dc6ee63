import Foundation
import Synchronization
import SwitchboardCore

/// Held while one process refreshes an identity's tokens, so that no other
/// process (or task) spends the same refresh token meanwhile: with a
/// provider that rotates refresh tokens, the second one would be refused
/// and taken for a revocation. On SQLite an advisory lock (`flock`) on a
/// file beside the database; on PostgreSQL a transaction-scoped advisory
/// lock of the identity, held by a transaction left open meanwhile. Either
/// is released if the holder dies. Release it with `release()`.
public final class RefreshLock: Sendable {
    private let releaser: Mutex<(@Sendable () -> Void)?>

    init(release: @escaping @Sendable () -> Void) { releaser = Mutex(release) }

    /// Lets the next waiter in. Calling it again does nothing.
    public func release() {
        let release = releaser.withLock { held in
            defer { held = nil }
            return held
        }
        release?()
    }

    deinit { release() }
}

extension AppDatabase {
    /// Waits (without blocking a thread) until no other holder refreshes
    /// `identity`'s tokens, then holds the lock that says so. Throws
    /// `unavailable` when it is still held after `timeout` seconds, or
    /// cannot be taken.
    public func lockRefreshes(of identity: Identity, timeout: Double = 60) async throws(StoreError) -> RefreshLock {
        try await engine.lockRefreshes(of: identity, timeout: timeout)
    }
}
