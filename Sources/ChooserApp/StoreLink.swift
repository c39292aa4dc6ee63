import Dispatch
import Foundation
import Store
import Synchronization
import SwitchboardCore

/// A UI loop's line to the store: the loop never calls the store itself.
/// Each call runs off the main actor, one at a time and in the order made
/// (a switch, then its favourites), and its result comes back on the main
/// actor. A result overtaken by a newer call of the same key (a reload
/// after a reload) is dropped.
///
/// Every call has a deadline: the store's own (a shared store's server has
/// `[store] timeout` to answer each statement, else the statement is
/// cancelled and the call fails as `offline`), and the link's, a little
/// longer, for a store that blocks without one: a call that has been
/// running that long (calls waiting behind it do not count, nor a main
/// actor slow to hear the answer). Past either the link is
/// **offline**: it tells the loop (`onChange`), skips the calls made
/// meanwhile (the loop reads everything again on return), and tries the
/// store with one round trip after 0.5 s, then every 1 s. The first
/// call that succeeds brings it back online, and the loop hears of it.
@MainActor
public final class StoreLink {
    /// Why the store cannot be used, while it cannot; nil while it can.
    public private(set) var offline: String?
    /// Seconds a call may be out before the store counts as not answering.
    public let deadline: Double
    /// Hears of the store going offline (with why) and coming back (nil).
    private let onChange: @MainActor (String?) -> Void
    /// Hears when a call has been running past `slowAfter` (true) and when
    /// none is out any more (false), once per change: a person waiting is
    /// shown that the store is.
    public var onSlow: (@MainActor (Bool) -> Void)?
    private var saidSlow = false
    /// How long a call runs before the loop is told that the store is slow.
    public static let slowAfter = Duration.milliseconds(300)
    private let queue = DispatchQueue(label: "switchboard.store-link")
    /// Why calls not yet run are skipped, while they are (read off the main actor).
    private nonisolated let skipping = Mutex<String?>(nil)
    /// Calls made and not yet answered: when each was made, and how long it
    /// may hold a frame (nil: until it is answered or the link is offline).
    private var outstanding: [Int: (made: ContinuousClock.Instant, holds: Duration?)] = [:]
    /// The call running on the queue, and since when (read off the main actor).
    private nonisolated let running = Mutex<ContinuousClock.Instant?>(nil)
    private var lastID = 0
    private var watchdog: Task<Void, Never>?
    private var prober: Task<Void, Never>?
    /// The waits between tries at the store while offline.
    static let retries: [Double] = [0.5, 1]
    /// How long a frame asked for waits for a call's answer, unless the call says otherwise:
    /// the answer of a store that keeps up shows in the frame of the key that asked.
    nonisolated public static let frameHold = Duration.milliseconds(50)
    /// How long this link's calls hold a frame by default (`frameHold`; tests that must not depend on the machine's speed give more).
    public var standardHold = StoreLink.frameHold

    /// How long a call's answer holds a frame asked for meanwhile.
    public enum FrameHold: Sendable {
        /// The link's `standardHold`.
        case standard
        /// Until the answer comes or the link is offline (a program's first frame).
        case untilAnswered
        /// Not at all: keys typed meanwhile act at once (a read of what
        /// only a detail line shows, asked for as the selection moves).
        case never
    }
    /// How much longer than `deadline` the link waits before it says offline itself.
    static let grace = 0.5

    /// - Parameters:
    ///   - deadline: the store's deadline (`[store] timeout`).
    ///   - onChange: hears `offline` change, once per change.
    public init(deadline: Double = StoreDeadline.standard, onChange: @escaping @MainActor (String?) -> Void) {
        self.deadline = deadline
        self.onChange = onChange
    }

    /// Runs `body` with `database` off the main actor, after every call made
    /// before it, and hands its result to `done` on the main actor, always
    /// once. While offline, `body` is not run: `done` hears `offline` at once.
    /// `holdsFrame` is how long a frame asked for meanwhile waits for this
    /// answer (`holdsFrame(now:)`), so that a quick store's answer shows in
    /// the frame of the key that asked for it.
    public func call<T: Sendable>(
        _ database: AppDatabase, holdsFrame: FrameHold = .standard,
        _ body: @escaping @Sendable (AppDatabase) throws(StoreError) -> T, then done: @escaping @MainActor (Result<T, StoreError>) -> Void
    ) {
        if let offline { return done(.failure(.offline(server: database.path, detail: offline))) }
        lastID += 1
        let id = lastID
        let holds: Duration? = switch holdsFrame {
        case .standard: standardHold
        case .untilAnswered: nil
        case .never: .zero
        }
        outstanding[id] = (ContinuousClock.now, holds)
        armWatchdog()
        queue.async { [weak self] in
            let result: Result<T, StoreError>
            let skipped: String? = if let self { self.skipping.withLock { $0 } } else { "closed" }
            if let skipped {
                result = .failure(.offline(server: database.path, detail: skipped))
            } else {
                self?.running.withLock { $0 = .now }
                result = Result { () throws(StoreError) in try body(database) }
                self?.running.withLock { $0 = nil }
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.outstanding[id] = nil
                    if self.outstanding.isEmpty { self.slow(false) }
                    // Any answer but offline, a refusal too, says the store is there; a call skipped says nothing.
                    if skipped == nil {
                        if case .failure(.offline(_, let detail)) = result { self.goOffline(detail) } else { self.comeBack(tell: true) }
                    }
                    done(result)
                }
            }
        }
    }

    /// Until when a frame asked for now should wait for answers: the
    /// latest hold of the calls still out; nil when none holds it.
    public func holdsFrame(now: ContinuousClock.Instant = .now) -> ContinuousClock.Instant? {
        // A hold until the answer is looked at again in a while; the answer itself asks for the frame.
        outstanding.values.map { call in call.holds.map { call.made + $0 } ?? now + .milliseconds(250) }.filter { $0 > now }.max()
    }

    /// The longest a call may be out before the link says offline.
    public var longestWait: Duration { .milliseconds(Int((deadline + Self.grace) * 1000)) }

    /// Whether a call is out.
    public var isBusy: Bool { !outstanding.isEmpty }

    /// Waits until the calls made so far have run, but no longer than a
    /// call may be out (`longestWait`): a loop that ends lets its last
    /// writes reach the store before the program does (a station's
    /// sign-out at a stop), and a store that does not answer holds it no
    /// longer than it would hold a call.
    public func settle() async {
        let resumed = Resumed()
        let limit = DispatchTime.now() + .milliseconds(Int((deadline + Self.grace) * 1000))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume: @Sendable () -> Void = { if resumed.first() { continuation.resume() } }
            // The queue runs calls one at a time in order: this runs once those made before it have.
            queue.async(execute: resume)
            DispatchQueue.global().asyncAfter(deadline: limit, execute: resume)
        }
    }

    /// True the first time only.
    private final class Resumed: Sendable {
        private let done = Mutex(false)
        func first() -> Bool { done.withLock { done in defer { done = true }; return !done } }
    }

    /// The loop heard from elsewhere (its change feed) that the store went
    /// away (`detail`) or came back (nil); the link follows, telling nobody.
    public func heard(offline detail: String?) {
        if let detail {
            guard offline == nil else { return }
            offline = detail
            skipping.withLock { $0 = detail }
            startProbing()
        } else {
            comeBack(tell: false)
        }
    }

    /// A call made elsewhere (a sign-in, a background read) found the store
    /// gone: offline, and the loop is told.
    public func noticed(offline detail: String) { goOffline(detail) }

    /// Stops the watchdog and the tries.
    public func stop() {
        watchdog?.cancel()
        prober?.cancel()
        (watchdog, prober) = (nil, nil)
    }

    // MARK: Offline and back

    private func goOffline(_ detail: String) {
        guard offline == nil else { return }
        offline = detail
        skipping.withLock { $0 = detail }
        slow(false)
        onChange(detail)
        startProbing()
    }

    private func comeBack(tell: Bool) {
        guard offline != nil else { return }
        offline = nil
        skipping.withLock { $0 = nil }
        prober?.cancel()
        prober = nil
        if tell { onChange(nil) }
    }

    /// One round trip at a time, until one is answered.
    private func startProbing() {
        guard prober == nil else { return }
        prober = Task { @MainActor [weak self, queue] in
            var attempt = 0
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int(Self.retries[min(attempt, Self.retries.count - 1)] * 1000)))
                attempt += 1
                guard let self, !Task.isCancelled, let database = self.probeTarget?() else { return }
                let answer: Result<Void, StoreError> = await withCheckedContinuation { continuation in
                    queue.async { continuation.resume(returning: Result { () throws(StoreError) in try database.ping() }) }
                }
                guard !Task.isCancelled else { return }
                switch answer {
                case .success: return self.comeBack(tell: true)
                case .failure(.offline(_, let detail)):
                    if self.offline != detail, self.offline != nil {
                        self.offline = detail
                        self.onChange(detail)
                    }
                case .failure:
                    // The server answered, if only to refuse: it is there.
                    return self.comeBack(tell: true)
                }
            }
        }
    }

    /// The store the tries go to (the loop's, which a tour may replace).
    public var probeTarget: (@MainActor () -> AppDatabase?)?

    /// Tells `onSlow`, once per change.
    private func slow(_ slow: Bool) {
        guard slow != saidSlow else { return }
        saidSlow = slow
        onSlow?(slow)
    }

    /// Wakes while calls are out: when the one running passes `slowAfter`
    /// (the loop shows that it waits), and when it could pass the deadline
    /// and the grace (still running then, the store is offline).
    private func armWatchdog() {
        guard watchdog == nil else { return }
        watchdog = Task { @MainActor [weak self] in
            while let self, !Task.isCancelled, !self.outstanding.isEmpty {
                let started = self.running.withLock { $0 }
                if let started, started.duration(to: .now) >= Self.slowAfter { self.slow(true) }
                if let started, started.duration(to: .now) >= self.longestWait {
                    let seconds = self.deadline == self.deadline.rounded() ? String(Int(self.deadline)) : String(self.deadline)
                    self.goOffline("the store has not answered for \(seconds) s")
                    // Calls out now are left to answer when they can; none is waited for again.
                    self.outstanding.removeAll()
                    break
                }
                let next = started.map { self.saidSlow ? $0 + self.longestWait : $0 + Self.slowAfter } ?? .now + .milliseconds(250)
                try? await Task.sleep(until: next)
            }
            self?.watchdog = nil
        }
    }
}
