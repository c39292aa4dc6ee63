import Dispatch
import Store
import SwitchboardCore
import TerminalUI

/// A screen's state as `ProgramShell` runs it: a pure reducer, and what the
/// shell needs to keep time for it. The chooser (with its station and tour
/// layers) and the board are each one.
public protocol ShellState: Sendable {
    /// What happens to the program.
    associatedtype ShellAction: Sendable
    /// The work its reducer asks for.
    associatedtype ShellEffect

    /// Applies `action`, which came at `now` (the shell's envelope: every
    /// action carries the time it came, none is sent only to move the
    /// clock); returns the work the loop must do.
    mutating func reduce(_ action: ShellAction, at now: Moment) -> [ShellEffect]
    /// False once the program has quit.
    var isRunning: Bool { get }
    /// Whether a tick on each second is wanted (a countdown or an idle time shows).
    var needsTicks: Bool { get }
    /// When the state next changes by itself (a toast goes, a deadline falls).
    var nextDeadline: Moment? { get }

    /// The timer's action.
    static func tick(_ now: Moment) -> ShellAction
    /// What the terminal sends: a key, a click, a resize.
    static func input(_ event: InputEvent) -> ShellAction
    /// Whether `action` is typed input (which waits for an answer on its way).
    static func isInput(_ action: ShellAction) -> Bool
    /// A signal asked the program to stop.
    static var terminate: ShellAction { get }
    /// The store went offline (why) or came back (nil).
    static func storeOffline(_ detail: String?) -> ShellAction
    /// A store call has been out a while (true), or none is any more.
    static func storeWaiting(_ waiting: Bool) -> ShellAction
}

/// The one loop every full-screen program runs (the chooser, a station, the
/// tour, the board): it owns the state, reduces each action with the time
/// it came, hands the effects to the program's `perform`, draws one frame at
/// the end of a turn however many actions came in it (`FrameRequests`),
/// holds keys typed while an answer is on its way (`Typeahead`), keeps the
/// line to the store (`StoreLink`: off the main actor, in order, with a
/// deadline), and owns its timers (a tick on each second while the state
/// wants one, one wake-up for its next deadline), which it cancels itself
/// when the program stops. Runs on the main actor; nothing here blocks it.
@MainActor
public final class ProgramShell<State: ShellState> {
    public private(set) var state: State
    /// The time each action is stamped with.
    let now: @Sendable () -> Moment
    private let render: @MainActor (State) -> Void
    /// The program's effects; set once by the loop that owns the shell.
    var perform: @MainActor (State.ShellEffect) -> Void = { _ in }
    /// Called at the end of each turn, before the timers are set and the frame asked for.
    var endOfTurn: @MainActor () -> Void = {}
    /// Called when the link finds the store back (after the state is told).
    var storeReturned: @MainActor () -> Void = {}
    /// Until when a frame and typed keys also wait, besides for the link's
    /// calls (the chooser: a reload asked for this turn is a call about to go out).
    var alsoHolds: @MainActor () -> ContinuousClock.Instant? = { nil }
    /// Called on each tick, after it is reduced (the board looks for stations gone quiet).
    var ticked: @MainActor (Moment) -> Void = { _ in }

    /// The program's line to the store.
    private(set) lazy var link: StoreLink = {
        let link = StoreLink(deadline: deadline) { [weak self] detail in self?.storeReachability(detail) }
        link.probeTarget = { [weak self] in self?.database() }
        link.onSlow = { [weak self] slow in self?.send(State.storeWaiting(slow)) }
        return link
    }()
    private let deadline: Double
    /// The store the link tries while offline (the tour's changes with each round).
    var database: @MainActor () -> AppDatabase? = { nil }
    private lazy var frames: FrameRequests = {
        // Weak: a held frame may come due after the loop is gone (a stop while an answer was on its way).
        let frames = FrameRequests { [weak self] in if let self { self.render(self.state) } }
        frames.hold = { [weak self] in self?.answersDue() }
        return frames
    }()
    private lazy var typeahead = Typeahead<State.ShellAction>(
        isInput: State.isInput, hold: { [weak self] in self?.answersDue() }, deliver: { [weak self] in self?.handle($0) })
    private var ticker: (any DispatchSourceTimer)?
    private var wakeUp: (timer: any DispatchSourceTimer, due: Moment)?
    private var quitContinuation: CheckedContinuation<Void, Never>?
    private var stopped = false

    /// - Parameters:
    ///   - deadline: seconds a store call has before the program counts the store offline.
    ///   - render: draws a state; called at most once per turn of the main actor.
    init(
        state: State, now: @escaping @Sendable () -> Moment, deadline: Double, render: @escaping @MainActor (State) -> Void
    ) {
        self.state = state
        self.now = now
        self.deadline = deadline
        self.render = render
    }

    /// Until when a frame asked for now, and keys typed now, wait for answers on their way.
    private func answersDue() -> ContinuousClock.Instant? {
        link.holdsFrame() ?? alsoHolds()
    }

    /// Handles one action: reduce, perform its effects, ask for a frame.
    /// Input typed while an answer is on its way waits for it a moment.
    public func send(_ action: State.ShellAction) {
        if typeahead.keep(action) { return }
        handle(action)
        // An answer came, or the hold ended: keys that waited go now, in order.
        typeahead.release()
    }

    private func handle(_ action: State.ShellAction) {
        reduce(action)
        endTurn()
    }

    /// Reduces `action` and performs its effects, with no frame asked for
    /// (the turn's end asks): the only way the state changes.
    func reduce(_ action: State.ShellAction) {
        for effect in state.reduce(action, at: now()) { perform(effect) }
    }

    /// After the actions of a turn: the program's own end, the timers set, a frame asked for.
    func endTurn() {
        endOfTurn()
        scheduleTimers()
        frames.request()
    }

    /// Draws now if anything changed since the last frame.
    public func flush() {
        frames.drawNow()
    }

    /// Waits until the program stops (`stop`). Returns at once if it has.
    func waitUntilStopped() async {
        guard state.isRunning, !stopped else { return }
        await withCheckedContinuation { quitContinuation = $0 }
    }

    /// Stops what the shell owns (the link, waiting keys, its timers) and
    /// ends `waitUntilStopped`.
    func stop() {
        stopped = true
        link.stop()
        typeahead.cancel()
        ticker?.cancel()
        ticker = nil
        wakeUp?.timer.cancel()
        wakeUp = nil
        quitContinuation?.resume()
        quitContinuation = nil
    }

    /// The link found the store gone (why) or back (nil).
    private func storeReachability(_ detail: String?) {
        send(State.storeOffline(detail?.displaySafe))
        if detail == nil { storeReturned() }
    }

    // MARK: Timers

    /// A tick on each second while the state wants one; otherwise, and for
    /// a deadline within the tick's second, one wake-up at the next
    /// deadline. One wake-up at a time: one due no later than the next
    /// deadline is kept (a deadline that moved later, as the idle one does
    /// at every key, is met by the wake-up before it), so a burst of keys
    /// leaves no timer per key behind it.
    private func scheduleTimers() {
        guard !stopped else { return }
        if state.needsTicks, ticker == nil {
            ticker = timer(after: 1 - now().secondsSince1970.truncatingRemainder(dividingBy: 1), repeating: true) { [weak self] in
                self?.tick()
            }
        } else if !state.needsTicks, let ticker {
            ticker.cancel()
            self.ticker = nil
        }
        guard let due = state.nextDeadline, ticker == nil || now().distance(to: due) < 1 else {
            wakeUp?.timer.cancel()
            wakeUp = nil
            return
        }
        if let wakeUp, wakeUp.due <= due { return }
        wakeUp?.timer.cancel()
        // At most `longestWait` ahead: the timer's clock stops while the machine sleeps and
        // the wall clock may be stepped, so a far deadline is looked at again on the way.
        let at = now()
        let capped = at.distance(to: due) > Self.longestWait
        let timer = timer(after: capped ? Self.longestWait : max(0.05, at.distance(to: due)), repeating: false) { [weak self] in
            self?.wakeUp = nil
            self?.tick()
        }
        // Kept for every later deadline it comes before (a key moving the idle deadline on makes no timer of its own).
        wakeUp = (timer, capped ? at.advanced(by: Self.longestWait) : due)
    }

    /// The longest one wake-up waits, in seconds, however far its deadline.
    static var longestWait: Double { 30 }

    /// The clock's tick, drawn in the same turn unless an answer holds the frame.
    private func tick() {
        let now = now()
        reduce(State.tick(now))
        ticked(now)
        endOfTurn()
        scheduleTimers()
        frames.requestNow()
    }

    /// A timer on the main queue itself: a tick wakes one thread once, not a chain of tasks.
    private func timer(after seconds: Double, repeating: Bool, _ fire: @escaping @MainActor () -> Void) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let first = DispatchTime.now() + .milliseconds(Int(seconds * 1000) + 5)
        if repeating {
            timer.schedule(deadline: first, repeating: .seconds(1), leeway: .milliseconds(20))
        } else {
            timer.schedule(deadline: first, leeway: .milliseconds(5))
        }
        timer.setEventHandler { MainActor.assumeIsolated { fire() } }
        timer.activate()
        return timer
    }
}
