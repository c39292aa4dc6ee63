/// Keys typed while an answer is on its way wait for it, as long as a frame
/// does (`StoreLink.frameHold`; the first page, until it is read), then go
/// on in the order typed. So keys typed ahead act on the screen the keys
/// before them made, as in a program that calls its store in place: `⏎ j ⏎`
/// switches, moves on the list as the switch ordered it, and switches
/// again; `f f` stars and unstars. A store that does not answer within the
/// hold holds no key longer: the keys then act on the screen as it is.
@MainActor
final class Typeahead<Action> {
    private var waiting: [Action] = []
    private var timer: Task<Void, Never>?
    private var releasing = false
    /// Until when keys wait; nil when nothing holds them.
    private let hold: @MainActor () -> ContinuousClock.Instant?
    /// Hands a key that waited to the loop.
    private let deliver: @MainActor (Action) -> Void
    /// Whether an action is typed (a key, a click, a resize): only those wait.
    private let isInput: (Action) -> Bool

    init(
        isInput: @escaping (Action) -> Bool, hold: @escaping @MainActor () -> ContinuousClock.Instant?,
        deliver: @escaping @MainActor (Action) -> Void
    ) {
        self.isInput = isInput
        self.hold = hold
        self.deliver = deliver
    }

    /// Keeps `action` if it is input that must wait (an answer is on its
    /// way, or keys typed before it still wait); false when it goes now.
    func keep(_ action: Action) -> Bool {
        guard isInput(action), !releasing else { return false }
        guard !waiting.isEmpty || isHeld else { return false }
        waiting.append(action)
        arm()
        return true
    }

    /// Lets the keys that wait go, in order, while nothing holds them.
    func release() {
        guard !releasing else { return }
        releasing = true
        defer { releasing = false }
        while !waiting.isEmpty, !isHeld { deliver(waiting.removeFirst()) }
        if !waiting.isEmpty { arm() }
    }

    /// Drops the keys that wait (the program quits).
    func cancel() {
        waiting.removeAll()
        timer?.cancel()
        timer = nil
    }

    private var isHeld: Bool { hold().map { $0 > .now } ?? false }

    /// Wakes when the hold ends, to let the keys go.
    private func arm() {
        guard timer == nil, let until = hold() else { return }
        timer = Task { @MainActor [weak self] in
            try? await Task.sleep(until: until)
            guard let self, !Task.isCancelled else { return }
            self.timer = nil
            self.release()
        }
    }
}
