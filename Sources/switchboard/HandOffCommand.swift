import CSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A station's hand-off command: run on the terminal for the person chosen,
/// in a process group of its own that has the terminal's foreground from
/// its start (so Ctrl-C and Ctrl-Z are its own), until it exits or the
/// terminal has had no input for `idleLimit` seconds. Then, and when the
/// station stops, it and everything it started are sent SIGHUP, and SIGKILL
/// `grace` seconds later if still there: this process is their reaper
/// (`PR_SET_CHILD_SUBREAPER`), so what they left running in the background,
/// in any process group, is found among its descendants. A stopped command
/// is continued: nobody is left at a stopped job.
struct HandOffCommand: Sendable {
    let arguments: [String]
    /// Seconds without input before the command is ended; input is the
    /// terminal's last read, as `w` shows it (to within 8 seconds).
    let idleLimit: Double
    /// Seconds between SIGHUP and SIGKILL.
    var grace: Double = 5

    /// How the command ended.
    enum Ending: Equatable {
        /// It exited, or a signal not of ours ended it: the status as a shell says it.
        case exited(Int32)
        /// It was ended for the idle limit.
        case idle
        /// It was ended because the station stops.
        case stopped
        /// It could not be started.
        case cannotRun(String)
    }

    /// Signals the command starts with at their default action.
    private static let defaultSignals = [
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU, SIGCHLD, SIGWINCH, SIGCONT, SIGALRM, SIGUSR1, SIGUSR2,
    ]

    /// Runs the command with exactly `environment` on `terminal` (which the
    /// caller has lent) and returns once it and what it started are gone and
    /// the terminal's foreground is this process's again. `lent` hears the
    /// command's process group once it runs, and nil once it is gone.
    func run(environment: [String: String], terminal: Int32, lent: @escaping @Sendable (pid_t?) -> Void = { _ in }) async -> Ending {
        guard !Task.isCancelled else { return .stopped }
        _ = cpt_become_subreaper()
        Self.waitsForChildren()
        // Children this process already has are not the command's.
        let others = Processes.descendants(of: getpid()).map(\.pid)
        // Without a controlling terminal (setsid) there is no foreground to give.
        let jobControl = tcgetpgrp(terminal) == getpgrp()
        let pid: pid_t
        switch spawnChild(
            arguments, environment: environment, defaultSignals: Self.defaultSignals, ownProcessGroup: true,
            foreground: jobControl ? terminal : nil)
        {
        case .success(let spawned): pid = spawned
        case .failure(let failure) where failure.code == ENOSYS && jobControl:
            // A C library without the spawn action: the foreground is given just after, and a
            // command that reads before that stops (SIGTTIN) until the supervisor continues it.
            guard case .success(let spawned) = spawnChild(
                arguments, environment: environment, defaultSignals: Self.defaultSignals, ownProcessGroup: true, foreground: nil)
            else { return .cannotRun(failure.description) }
            pid = spawned
            tcsetpgrp(terminal, pid)
        case .failure(let failure): return .cannotRun(failure.description)
        }
        lent(pid)
        let job = Job(leader: pid, others: Set(others), grace: grace, lent: lent)
        let supervisor = Task.detached { await job.supervise(idleLimit: idleLimit, terminal: terminal) }
        let status = await withTaskCancellationHandler {
            await job.end()
        } onCancel: {
            job.hangUp(.stopped)
        }
        supervisor.cancel()
        if jobControl { Self.takeForeground(terminal) }
        return job.reason ?? .exited(shellStatus(status))
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
    /// This process's children from before the command: not to be touched.
    let others: Set<pid_t>
    let grace: Double
    /// Told nil once the leader exited: its group is no longer the command's to kill.
    let lent: @Sendable (pid_t?) -> Void
    /// Hung up when and why; whether the leader has exited (after which its
    /// pid and group id are never signalled: they may be another's).
    private let state = Mutex<(hungUpAt: ContinuousClock.Instant?, reason: HandOffCommand.Ending?, exited: Bool)>((nil, nil, false))

    init(leader: pid_t, others: Set<pid_t>, grace: Double, lent: @escaping @Sendable (pid_t?) -> Void) {
        self.leader = leader
        self.others = others
        self.grace = grace
        self.lent = lent
    }

    /// Why this program ended it, if it did.
    var reason: HandOffCommand.Ending? { state.withLock { $0.reason } }

    /// Waits (on a thread of its own: the waits block) for the command to
    /// exit, ends what it left running, and returns its wait status.
    func end() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.waitAndEnd()) }
        }
    }

    private func waitAndEnd() -> Int32 {
        // Waited for but not reaped: while it is a zombie its process group id cannot be taken by another.
        var info = siginfo_t()
        while waitid(P_PID, id_t(leader), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        state.withLock { $0.exited = true }
        endDescendants()
        // Its group is the command's until the leader is reaped; then no signal may go to it.
        lent(nil)
        var status: Int32 = 0
        while waitpid(leader, &status, 0) == -1 && errno == EINTR {}
        return status
    }

    /// The command's descendants still there, not counting its leader: this
    /// process's descendants but those that were there before, and theirs.
    private func survivors() -> [Processes.Entry] {
        Processes.descendants(of: getpid(), skipping: others).filter { $0.pid != leader }
    }

    /// SIGHUP to what the command left, SIGKILL to what is left of that
    /// after `grace`, each reaped once it is this process's zombie.
    private func endDescendants() {
        var left = survivors()
        guard !left.isEmpty else { return }
        for entry in left where !entry.isZombie { signal(entry.pid, SIGHUP) }
        let deadline = ContinuousClock.now.advanced(by: .seconds(grace))
        // Past SIGKILL, only a process stuck in the kernel could stay: it is not waited for long.
        while !left.isEmpty, ContinuousClock.now < deadline.advanced(by: .seconds(5)) {
            for entry in left where entry.isZombie && entry.parent == getpid() { waitpid(entry.pid, nil, WNOHANG) }
            // Past the grace, every pass: what was started since the last one goes too.
            if ContinuousClock.now >= deadline {
                for entry in left where !entry.isZombie { kill(entry.pid, SIGKILL) }
            }
            usleep(50_000)
            left = survivors()
        }
    }

    /// Sends SIGHUP (and SIGCONT, should it be stopped) once, for `reason`.
    func hangUp(_ reason: HandOffCommand.Ending) {
        state.withLock { state in
            guard state.hungUpAt == nil else { return }
            (state.hungUpAt, state.reason) = (ContinuousClock.now, reason)
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

    /// Once a second: continues a stopped command, ends it when the
    /// terminal has had no input for `idleLimit` (told by a change of its
    /// access time, timed on this process's own clock), and kills it
    /// `grace` seconds after it was hung up.
    func supervise(idleLimit: Double, terminal: Int32) async {
        var lastRead = Self.lastRead(terminal), lastInput = ContinuousClock.now
        while !Task.isCancelled {
            let now = ContinuousClock.now
            let read = Self.lastRead(terminal)
            if read != lastRead { (lastRead, lastInput) = (read, now) }
            let (hungUpAt, exited) = state.withLock { ($0.hungUpAt, $0.exited) }
            if exited {
                return  // what is left is `endDescendants`' to end
            } else if let hungUpAt {
                if now >= hungUpAt.advanced(by: .seconds(grace)) { killLeader(SIGKILL) }
            } else if now >= lastInput.advanced(by: .seconds(idleLimit)) {
                hangUp(.idle)
            } else if Processes.entry(leader)?.isStopped == true {
                killLeader(SIGCONT)
            }
            try? await Task.sleep(for: .seconds(1))
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

    /// When the terminal last had input read from it (its access time).
    private static func lastRead(_ terminal: Int32) -> timespec {
        var info = stat()
        guard fstat(terminal, &info) == 0 else { return timespec() }
        return info.st_atim
    }
}

extension timespec: @retroactive Equatable {
    public static func == (a: timespec, b: timespec) -> Bool { a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec }
}

/// The processes of this machine, as `/proc` lists them.
enum Processes {
    /// A process: its parent and its state.
    struct Entry {
        let pid: pid_t
        let parent: pid_t
        let state: Character

        var isZombie: Bool { state == "Z" }
        var isStopped: Bool { state == "T" }
    }

    /// `pid`'s entry, if it exists.
    static func entry(_ pid: pid_t) -> Entry? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        // "pid (name) state ppid …": the name may hold anything, so it is skipped to its last ")".
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
        return Entry(pid: pid, parent: parent, state: state)
    }

    /// Every process below `root`, but those in `skipping` and theirs.
    static func descendants(of root: pid_t, skipping: Set<pid_t> = []) -> [Entry] {
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }.compactMap(entry)
        let children = Dictionary(grouping: all, by: \.parent)
        var found: [Entry] = [], queue = [root]
        while let parent = queue.popLast() {
            for child in children[parent] ?? [] where !skipping.contains(child.pid) {
                found.append(child)
                queue.append(child.pid)
            }
        }
        return found
    }
}
