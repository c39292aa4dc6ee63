import TestBasics
import Foundation
import ProcessKit
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A clock a test moves by hand: `sleep(until:)` returns once `advance(to:)`
/// has reached the deadline (or the sleeping task is cancelled).
final class ManualClock: SupervisorClock {
    private struct State {
        var now = 0.0
        var sleepers: [Int: (deadline: Double, continuation: CheckedContinuation<Void, Never>)] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    func now() -> Double { state.withLock { $0.now } }

    func sleep(until deadline: Double) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let due = state.withLock { state -> Bool in
                    if Task.isCancelled || state.now >= deadline { return true }
                    state.sleepers[id] = (deadline, continuation)
                    return false
                }
                if due { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.sleepers.removeValue(forKey: id) }?.continuation.resume()
        }
    }

    /// Sets the time to `time` and wakes whoever sleeps until then.
    func advance(to time: Double) {
        let due = state.withLock { state in
            state.now = time
            let due = state.sleepers.filter { $0.value.deadline <= time }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Waits until something sleeps until a time after `time`: a check made
    /// at `time` is then done. False when nothing did within `seconds`.
    func sleeper(after time: Double, within seconds: Double = 60) async -> Bool {
        (try? await waitUntil("a check waiting on the clock", within: seconds) {
            self.state.withLock { $0.sleepers.values.contains { $0.deadline > time } }
        }) != nil
    }
}


/// A pseudo-terminal whose slave a supervised command writes to; reads
/// wait on a thread of their own, never on the test's.
///
/// The waits here are long (60 s) because the whole test run shares two
/// cores and the concurrency pool: a busy run can hold a supervisor's task
/// up for many seconds. Each returns as soon as what it waits for happens.
final class CommandTerminal: @unchecked Sendable {
    let pty: PseudoTerminal

    init() throws { pty = try PseudoTerminal() }

    /// The command's descriptors 0, 1 and 2: the slave.
    var descriptors: [ChildDescriptor] { [.same(pty.slave), .same(pty.slave), .same(pty.slave)] }

    /// Waits for `text` to arrive after what earlier waits found; false after `timeout` seconds.
    func waitFor(_ text: String, timeout: Double = 60) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: self.pty.read(until: Array(text.utf8), timeout: timeout) != nil) }
        }
    }

    /// Everything the command wrote so far.
    var text: String { String(decoding: pty.received, as: UTF8.self) }
}

/// What a supervised run did: the group it was lent, and how it ended.
final class RunRecord: Sendable {
    let lent = Mutex<[pid_t?]>([])
    let ending = Mutex<Supervisor.Ending?>(nil)

    var leader: pid_t? { groups.first ?? nil }
    /// What `lent` heard, in order.
    var groups: [pid_t?] { lent.withLock { $0 } }
    var ended: Supervisor.Ending? { ending.withLock { $0 } }

    /// The command's process id, once `lent` has heard it (the command may
    /// write before the spawn has returned), within `seconds`.
    func waitForLeader(within seconds: Double = 60) async -> pid_t? {
        try? await waitUntil("the leader", within: seconds) { self.leader != nil }
        return leader
    }

    /// The ending, once there is one within `seconds`.
    func waitForEnding(within seconds: Double = 60) async -> Supervisor.Ending? {
        try? await waitUntil("the ending", within: seconds) { self.ended != nil }
        return ended
    }
}

extension Supervisor {
    /// Runs `arguments` in a task of its own, noting what happened in the record returned.
    func start(_ arguments: [String], environment: [String: String]) -> (task: Task<Void, Never>, record: RunRecord) {
        let record = RunRecord()
        let task = Task.detached {
            let ending = await self.run(arguments, environment: environment) { group in record.lent.withLock { $0.append(group) } }
            record.ending.withLock { $0 = ending }
        }
        return (task, record)
    }
}

/// The processes of this test's own run: a mark in the environment that
/// every descendant of a command inherits, so a supervisor in this test
/// process never takes another test's children for its command's.
struct RunMark: Sendable {
    let name = "PROCESSKIT_TEST_RUN"
    let value = UUID().uuidString

    var environment: [String: String] { ["PATH": "/usr/bin:/bin", name: value] }

    /// Whether `pid`'s environment holds this mark.
    func isOn(_ pid: pid_t) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        return data.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "\(name)=\(value)" }
    }
}

/// Whether `pid` is gone: no process, not even a zombie, has its id.
func isGone(_ pid: pid_t) -> Bool { kill(pid, 0) == -1 && errno == ESRCH }

/// Whether `pid` runs (is there and not a zombie).
func isRunning(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let end = text.lastIndex(of: ")")
    else { return false }
    return text[text.index(after: end)...].split(separator: " ").first != "Z"
}
