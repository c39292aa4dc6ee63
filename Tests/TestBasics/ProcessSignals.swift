import Synchronization

/// The process's signal dispositions are one for the whole test run, and
/// suites run in parallel: a test that installs signal handlers, or checks
/// which are installed, holds `processSignals` while it does, so that no
/// other such test changes them under it.
public let processSignals = TestLock()

/// A lock a test holds across awaits: `acquire()` waits its turn, in order.
public final class TestLock: Sendable {
    private let state = Mutex<(held: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    public func acquire() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if !state.held {
                    state.held = true
                    return true
                }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.held = false
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }

    /// Runs `body` holding the lock.
    @discardableResult
    public func exclusively<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
