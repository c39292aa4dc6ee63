/// Frames asked for in one turn of the main actor become one frame: each
/// loop asks after every action, and this draws once, at the end of the
/// turn, or at once when the loop flushes. A frame may wait a moment for
/// answers on their way (`hold`): a store that answers within it shows its
/// answer in the frame of the key that asked, with no half-read frame
/// before it; one that does not is drawn without it, and again when it
/// comes.
@MainActor
final class FrameRequests {
    private var pending = false
    private var scheduled = false
    private var holding: Task<Void, Never>?
    private let draw: @MainActor () -> Void
    /// Until when a frame asked for now waits; nil when nothing holds it.
    var hold: @MainActor () -> ContinuousClock.Instant? = { nil }

    /// - Parameter draw: draws the loop's state as it is when called.
    init(draw: @escaping @MainActor () -> Void) {
        self.draw = draw
    }

    /// Asks for a frame at the end of this turn, unless one is asked already.
    func request() {
        pending = true
        guard !scheduled else { return }
        scheduled = true
        Task { @MainActor [weak self] in
            guard let self else { return }
            self.scheduled = false
            self.drawUnlessHeld()
        }
    }

    /// Asks for a frame and draws it now, in this turn, unless an answer
    /// on its way holds it (a timer's tick: no task is made for it).
    func requestNow() {
        pending = true
        drawUnlessHeld()
    }

    /// Draws the frame asked for, unless an answer on its way holds it:
    /// then when the hold ends (or, sooner, at the next request).
    private func drawUnlessHeld() {
        guard pending else { return }
        if let until = hold(), until > .now {
            guard holding == nil else { return }
            holding = Task { @MainActor [weak self] in
                try? await Task.sleep(until: until)
                guard let self, !Task.isCancelled else { return }
                self.holding = nil
                self.drawUnlessHeld()
            }
            return
        }
        drawNow()
    }

    /// Draws now; a frame asked for earlier in this turn is then not drawn again.
    func drawNow() {
        pending = false
        holding?.cancel()
        holding = nil
        draw()
    }
}
