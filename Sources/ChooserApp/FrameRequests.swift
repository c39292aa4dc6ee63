/// Frames asked for in one turn of the main actor become one frame: each
/// loop asks after every action, and this draws once, at the end of the
/// turn, or at once when the loop flushes.
@MainActor
final class FrameRequests {
    private var pending = false
    private let draw: @MainActor () -> Void

    /// - Parameter draw: draws the loop's state as it is when called.
    init(draw: @escaping @MainActor () -> Void) {
        self.draw = draw
    }

    /// Asks for a frame at the end of this turn, unless one is asked already.
    func request() {
        guard !pending else { return }
        pending = true
        Task { @MainActor [weak self] in
            guard let self, self.pending else { return }
            self.drawNow()
        }
    }

    /// Draws now; a frame asked for earlier in this turn is then not drawn again.
    func drawNow() {
        pending = false
        draw()
    }
}
