import CSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The time a `Supervisor` reads and waits on, in seconds: the monotonic
/// clock in a program, a clock a test moves by hand.
public protocol SupervisorClock: Sendable {
    /// Seconds since an arbitrary fixed point; only differences mean anything.
    func now() -> Double
    /// Returns once `now()` has reached `deadline`, or the task is cancelled.
    func sleep(until deadline: Double) async
}

/// `Monotonic.seconds()`, slept on with `Task.sleep`.
public struct MonotonicClock: SupervisorClock {
    public init() {}

    public func now() -> Double { Monotonic.seconds() }

    public func sleep(until deadline: Double) async {
        let left = deadline - now()
        if left > 0 { try? await Task.sleep(for: .seconds(left)) }
    }
}

/// The idle rule: input is told by a change of a stamp (a terminal's access
/// time, say), timed on the supervisor's clock when it is seen; idle is
/// `limit` seconds or more since the last input (or since watching began).
public struct IdleWatch: Sendable, Equatable {
    /// Seconds without input that make it idle.
    public let limit: Double
    /// The stamp last seen.
    public private(set) var stamp: Double
    /// When the stamp was last seen to change (or watching began).
    public private(set) var lastInput: Double

    /// Starts watching at `now`, the stamp being `stamp`.
    public init(limit: Double, stamp: Double, now: Double) {
        self.limit = limit
        self.stamp = stamp
        self.lastInput = now
    }

    /// Notes the stamp read at `now`; returns whether it is idle.
    public mutating func isIdle(stamp: Double, at now: Double) -> Bool {
        if stamp != self.stamp { (self.stamp, lastInput) = (stamp, now) }
        return now >= lastInput + limit
    }
}

/// Runs a command on a terminal lent to it, as a station hands its terminal
/// to the person chosen: in a process group of its own that has the
/// terminal's foreground before it runs (when the terminal is this process's
/// controlling terminal and its group the foreground: skipped otherwise),
/// until it exits, has had no input for `idleLimit`, or the task running it
/// is cancelled. Then it is sent SIGHUP (with its group), and SIGKILL
/// `grace` seconds later if still there. Once the command has exited
/// (waited for, not yet reaped, so its group id stays taken), every
/// descendant it left, found through `/proc`, gets the same and is reaped:
/// this process is the reaper of its orphaned descendants
/// (`PR_SET_CHILD_SUBREAPER`), so what the command left running in the
/// background, in any process group or session, is found among them. A
/// stopped command is continued: nobody is left at a stopped job. The
/// foreground is this process's group again when `run` returns.
///
/// Time is `clock`'s: the checks run every `tick` seconds of it, and the
/// grace is counted on it; input is a change of `lastInput()` (by default
/// the terminal's access time, its last read as `w` shows it).
public struct Supervisor: Sendable {
    /// How the command ended.
    public enum Ending: Sendable, Equatable {
        /// It exited, or a signal not of ours ended it: the status as a shell
        /// says it (`exitCode(fromWaitStatus:)`).
        case exited(Int32)
        /// It was ended for the idle limit.
        case idle
        /// It was ended because the task running it was cancelled.
        case stopped
        /// It could not be started.
        case cannotRun(ProcessError)
    }

    /// The terminal lent: the command's controlling terminal, whose
    /// foreground it gets, and by default where input is told from.
    public let terminal: Int32
    /// Seconds without input before the command is ended.
    public let idleLimit: Double
    /// Seconds between SIGHUP and SIGKILL.
    public var grace: Double = 5
    /// Seconds between two checks (input, a stopped command, the grace).
    public var tick: Double = 1
    /// The time the checks read and wait on.
    public var clock: any SupervisorClock = MonotonicClock()
    /// A stamp that changes when the terminal has input.
    public var lastInput: @Sendable () -> Double
    /// The command's descriptors 0, 1 and 2.
    public var descriptors: [ChildDescriptor] = ChildDescriptor.standard
    /// Which processes that appeared below this one while the command ran
    /// are the command's leftovers, asked once of each: all (the default),
    /// where this process starts nothing else meanwhile.
    public var isLeftover: @Sendable (pid_t) -> Bool = { _ in true }

    /// A supervisor for commands on `terminal`, ended after `idleLimit`
    /// seconds without input; the other settings are as declared.
    public init(terminal: Int32, idleLimit: Double) {
        self.terminal = terminal
        self.idleLimit = idleLimit
        self.lastInput = { Self.accessTime(of: terminal) }
    }

    /// The terminal's access time (its last read), in seconds; 0 when it cannot be read.
    public static func accessTime(of terminal: Int32) -> Double {
        var info = stat()
        guard fstat(terminal, &info) == 0 else { return 0 }
        return Double(info.st_atim.tv_sec) + Double(info.st_atim.tv_nsec) / 1e9
    }

    /// Runs `arguments` (the program looked up in `PATH`) with exactly
    /// `environment` and returns once it and what it left are gone and the
    /// terminal's foreground is this process's group's again. `lent` hears
    /// the command's process group once it runs, and nil once it is gone
    /// (from then on its id may be another's).
    public func run(
        _ arguments: [String], environment: [String: String], lent: @escaping @Sendable (pid_t?) -> Void = { _ in }
    ) async -> Ending {
        guard !Task.isCancelled else { return .stopped }
        guard let program = arguments.first else { return .cannotRun(ProcessError("no command to run")) }
        _ = cpt_become_subreaper()
        Self.waitsForChildren()
        // Children this process already has are not the command's.
        let others = ProcessTable.descendants(of: getpid()).map(\.pid)
        // Without a controlling terminal (setsid), or in the background, there is no foreground to give.
        let jobControl = tcgetpgrp(terminal) == getpgrp()
        let pid: pid_t
        do throws(ProcessError) {
            (pid, _) = try spawnChild(
                program, Array(arguments.dropFirst()), environment: environment, descriptors: descriptors, searchPath: true,
                group: .newGroup(foreground: jobControl ? terminal : nil))
        } catch {
            return .cannotRun(error)
        }
        lent(pid)
        let job = Job(leader: pid, others: Set(others), settings: self, lent: lent)
        let watch = Task.detached { await job.supervise() }
        let status = await withTaskCancellationHandler {
            await job.end()
        } onCancel: {
            job.hangUp(.stopped)
        }
        watch.cancel()
        if jobControl { Self.takeForeground(terminal) }
        return job.reason ?? .exited(exitCode(fromWaitStatus: status))
    }

    /// SIGCHLD at its default action: were it ignored (inherited so), the
    /// children's ends could not be waited for.
    private static func waitsForChildren() {
        var current = sigaction()
        sigaction(SIGCHLD, nil, &current)
        if current.ignores { signal(SIGCHLD, SIG_DFL) }
    }

    /// Makes this process's group the terminal's foreground again; it is
    /// in the background then, so SIGTTOU is ignored meanwhile.
    private static func takeForeground(_ terminal: Int32) {
        var old = ignore(SIGTTOU)
        tcsetpgrp(terminal, getpgrp())
        sigaction(SIGTTOU, &old, nil)
    }
}

/// A running command, its descendants, and the signals sent to them.
private final class Job: Sendable {
    let leader: pid_t
    /// This process's descendants from before the command: not to be touched.
    let others: Set<pid_t>
    let settings: Supervisor
    /// Told nil once the leader exited: its group is no longer the command's to kill.
    let lent: @Sendable (pid_t?) -> Void
    /// Hung up when (on the clock) and why; whether the leader has exited
    /// (after which its pid and group id are never signalled: they may be another's).
    private let state = Mutex<(hungUpAt: Double?, reason: Supervisor.Ending?, exited: Bool)>((nil, nil, false))
    /// The processes found to be the command's leftovers, and those found not to be.
    private let judged = Mutex<(leftovers: Set<pid_t>, not: Set<pid_t>)>(([], []))

    init(leader: pid_t, others: Set<pid_t>, settings: Supervisor, lent: @escaping @Sendable (pid_t?) -> Void) {
        self.leader = leader
        self.others = others
        self.settings = settings
        self.lent = lent
    }

    /// Why the supervisor ended it, if it did.
    var reason: Supervisor.Ending? { state.withLock { $0.reason } }

    /// Waits (on a thread of its own: the waits block) for the command to
    /// exit, ends what it left running, and returns its wait status.
    func end() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.waitAndEnd()) }
        }
    }

    private func waitAndEnd() -> Int32 {
        // Waited for but not reaped: while it is a zombie its process group id cannot be taken by another.
        waitForEnd(of: leader)
        state.withLock { $0.exited = true }
        endDescendants()
        // Its group is the command's until the leader is reaped; then no signal may go to it.
        lent(nil)
        return reap(leader)
    }

    /// The command's descendants still there, not counting its leader: this
    /// process's descendants but those that were there before and theirs,
    /// and those `isLeftover` disowns.
    private func survivors() -> [ProcessTable.Entry] {
        ProcessTable.descendants(of: getpid(), skipping: others).filter { entry in
            guard entry.pid != leader else { return false }
            if let known = judged.withLock({ $0.leftovers.contains(entry.pid) ? true : $0.not.contains(entry.pid) ? false : nil }) {
                return known
            }
            let leftover = settings.isLeftover(entry.pid)
            judged.withLock { _ = leftover ? $0.leftovers.insert(entry.pid) : $0.not.insert(entry.pid) }
            return leftover
        }
    }

    /// SIGHUP to what the command left, SIGKILL to what is left of that
    /// after the grace (on the clock), each reaped once it is this process's zombie.
    private func endDescendants() {
        // The grace counts from before the hang-up, so whoever sees it knows the deadline is set.
        let deadline = settings.clock.now() + settings.grace
        var left = survivors()
        guard !left.isEmpty else { return }
        for entry in left where !entry.isZombie { signal(entry.pid, SIGHUP) }
        var killingSince: Double?
        while !left.isEmpty {
            for entry in left where entry.isZombie && entry.parent == getpid() { waitpid(entry.pid, nil, WNOHANG) }
            // Past the grace, every pass: what was started since the last one goes too.
            if settings.clock.now() >= deadline {
                let since = killingSince ?? Monotonic.seconds()
                killingSince = since
                // Past SIGKILL, only a process stuck in the kernel could stay: it is not waited for long.
                if Monotonic.seconds() > since + 5 { return }
                for entry in left where !entry.isZombie { kill(entry.pid, SIGKILL) }
            }
            usleep(20_000)
            left = survivors()
        }
    }

    /// Sends SIGHUP (and SIGCONT, should it be stopped) once, for `reason`.
    func hangUp(_ reason: Supervisor.Ending) {
        let now = settings.clock.now()
        state.withLock { state in
            guard state.hungUpAt == nil else { return }
            (state.hungUpAt, state.reason) = (now, reason)
            // Exited already: what it left is being ended anyway.
            if !state.exited { signal(leader, SIGHUP) }
        }
    }

    /// `signal` to a process and its group, then SIGCONT, so a stopped one acts on it.
    private func signal(_ pid: pid_t, _ signal: Int32) {
        for target in [pid, -pid] {
            kill(target, signal)
            kill(target, SIGCONT)
        }
    }

    /// Every tick: continues a stopped command, ends it when the terminal
    /// has had no input for the idle limit, and kills it the grace after it
    /// was hung up.
    func supervise() async {
        let clock = settings.clock
        var idle = IdleWatch(limit: settings.idleLimit, stamp: settings.lastInput(), now: clock.now())
        while !Task.isCancelled {
            let now = clock.now()
            let isIdle = idle.isIdle(stamp: settings.lastInput(), at: now)
            let (hungUpAt, exited) = state.withLock { ($0.hungUpAt, $0.exited) }
            if exited {
                return  // what is left is `endDescendants`' to end
            } else if let hungUpAt {
                if now >= hungUpAt + settings.grace { killLeader(SIGKILL) }
            } else if isIdle {
                hangUp(.idle)
            } else if ProcessTable.entry(leader)?.isStopped == true {
                killLeader(SIGCONT)
            }
            await clock.sleep(until: now + settings.tick)
        }
    }

    /// `signal` to the leader and its group, unless it has exited (checked
    /// under the lock its exit is noted under).
    private func killLeader(_ signal: Int32) {
        state.withLock { state in
            guard !state.exited else { return }
            kill(leader, signal)
            kill(-leader, signal)
        }
    }
}
