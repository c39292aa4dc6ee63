import ScreenKit
import Synchronization

/// A PIN check on its way to the store that the person may take back (Esc):
/// the store asks it, once the PIN is derived and before it writes.
final class PendingPINCheck: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// Whether the person took it back.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Takes it back.
    func cancel() { cancelled.store(true, ordering: .releasing) }
}
