import TestBasics
import Foundation
import ProcessKit
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A station's hand-off rules, in this process on a pseudo-terminal: the
/// supervisor's time is a clock the test moves, so no limit is waited for.
/// Serialized: while a supervisor runs, this process reaps orphans.
@Suite("Supervisor: a command on a lent terminal", .serialized)
final class SupervisorTests {
    let mark = RunMark()

    /// A supervisor sets signal dispositions (SIGTTOU while it gives the
    /// foreground back, exec's forwarding of SIGTERM and SIGHUP): no other
    /// test may look at them meanwhile.
    init() async { await processSignals.acquire() }
    deinit { processSignals.release() }

    /// A supervisor for a command on `terminal`, on `clock`, whose leftovers are only this test's.
    func supervisor(_ terminal: CommandTerminal, clock: ManualClock, idleLimit: Double = 1000) -> Supervisor {
        var supervisor = Supervisor(terminal: terminal.pty.slave, idleLimit: idleLimit)
        supervisor.clock = clock
        supervisor.lastInput = { 0 }
        supervisor.descriptors = terminal.descriptors
        supervisor.isLeftover = { [mark] in mark.isOn($0) }
        return supervisor
    }

    @Test("stopped, a command that ignores SIGHUP gets it at once, and SIGKILL only once the grace has passed on the clock")
    func hangUpThenKill() async throws {
        let terminal = try CommandTerminal(), clock = ManualClock()
        let (task, record) = supervisor(terminal, clock: clock).start(
            ["sh", "-c", "trap 'echo got-hup' HUP; echo ready; while :; do sleep 0.05; done"], environment: mark.environment)
        #expect(await terminal.waitFor("ready"), "\(terminal.text)")
        let leader = try #require(await record.waitForLeader())
        #expect(await clock.sleeper(after: 0), "the first check is made")

        task.cancel()  // the station stops
        #expect(await terminal.waitFor("got-hup"), "SIGHUP at once: \(terminal.text)")
        clock.advance(to: 4.9)
        #expect(await clock.sleeper(after: 4.9), "the check at 4.9 s is made")
        #expect(isRunning(leader) && record.ended == nil, "within the grace, it runs on")

        clock.advance(to: 5.9)  // the next check: 5.9 s after the hang-up
        #expect(await record.waitForEnding() == .stopped)
        #expect(isGone(leader), "killed and reaped")
        #expect(record.groups == [leader, nil], "its group lent, then taken back")
    }

    @Test("idle: ended once the clock is the limit past the last input, not before; input moves the limit on")
    func idleOnTheClock() async throws {
        let terminal = try CommandTerminal(), clock = ManualClock()
        let input = Mutex(0.0)
        var supervisor = supervisor(terminal, clock: clock, idleLimit: 60)
        supervisor.lastInput = { input.withLock { $0 } }
        let (_, record) = supervisor.start(["sh", "-c", "echo ready; exec sleep 600"], environment: mark.environment)
        #expect(await terminal.waitFor("ready"), "\(terminal.text)")
        let leader = try #require(await record.waitForLeader())
        #expect(await clock.sleeper(after: 0), "watching from 0 s")

        clock.advance(to: 59)
        #expect(await clock.sleeper(after: 59))
        #expect(isRunning(leader) && record.ended == nil, "59 s without input is not idle")

        input.withLock { $0 = 1 }  // a key, seen at the check at 100 s
        clock.advance(to: 100)
        #expect(await clock.sleeper(after: 100))
        clock.advance(to: 159)
        #expect(await clock.sleeper(after: 159))
        #expect(isRunning(leader) && record.ended == nil, "59 s since the key is not idle")

        clock.advance(to: 160)
        #expect(await record.waitForEnding() == .idle)
        #expect(isGone(leader))
    }

    @Test("once the command exits, what it left (in a session of its own, in the background, one ignoring SIGHUP) gets SIGHUP, then SIGKILL after the grace, and is reaped")
    func leftoversEnded() async throws {
        let terminal = try CommandTerminal(), clock = ManualClock()
        let script = """
            setsid sleep 600 & echo "left $!"
            sleep 600 & echo "left $!"
            mark=$(mktemp -u)
            sh -c 'trap "echo stubborn-hup" HUP; : > "$1"; while :; do sleep 0.05; done' stubborn "$mark" & echo "left $!"
            # Not before its trap is set: a SIGHUP sooner would end it as any other.
            until [ -e "$mark" ]; do sleep 0.01; done
            rm -f "$mark"
            echo ready
            exit 3
            """
        let (_, record) = supervisor(terminal, clock: clock).start(["sh", "-c", script], environment: mark.environment)
        #expect(await terminal.waitFor("ready"), "\(terminal.text)")
        let leader = try #require(await record.waitForLeader())
        let left = terminal.text.split(whereSeparator: \.isNewline).compactMap { line in
            line.hasPrefix("left ") ? pid_t(line.dropFirst(5).trimmingCharacters(in: .whitespaces)) : nil
        }
        try #require(left.count == 3, "\(terminal.text)")

        #expect(await terminal.waitFor("stubborn-hup"), "SIGHUP to what was left: \(terminal.text)")
        try await waitUntil("the sleeps ended on SIGHUP and reaped", within: 60) { isGone(left[0]) && isGone(left[1]) }
        #expect(isRunning(left[2]) && record.ended == nil, "the one that ignores it runs on within the grace")
        #expect(!isGone(leader), "the leader stays unreaped meanwhile: its group id stays taken")

        clock.advance(to: 5)
        #expect(await record.waitForEnding() == .exited(3), "the command's own status")
        #expect(left.allSatisfy(isGone) && isGone(leader), "every one killed and reaped")
        #expect(record.groups == [leader, nil])
    }

    @Test("the idle rule alone: input is a change of the stamp, timed when seen")
    func idleWatch() {
        var watch = IdleWatch(limit: 10, stamp: 5, now: 100)
        var seen: [Bool] = []
        for (stamp, time) in [(5.0, 109.9), (6.0, 109.9), (6.0, 119.8), (6.0, 119.9)] { seen.append(watch.isIdle(stamp: stamp, at: time)) }
        #expect(seen == [false, false, false, true], "input seen at 109.9 puts the limit at 119.9")
        #expect(watch.lastInput == 109.9 && watch.stamp == 6)
    }

    @Test("a command that cannot be started: not found 127, not runnable 126, as a shell says")
    func cannotRun() async throws {
        let supervisor = Supervisor(terminal: -1, idleLimit: 1)
        let missing = await supervisor.run(["processkit-no-such-program"], environment: mark.environment)
        guard case .cannotRun(let error) = missing else { Issue.record("\(missing)"); return }
        #expect(error.commandStatus == 127)
        let folder = await supervisor.run([NSTemporaryDirectory()], environment: mark.environment)
        guard case .cannotRun(let notProgram) = folder else { Issue.record("\(folder)"); return }
        #expect(notProgram.commandStatus == 126)
        // runInPlace sets SIGTERM's and SIGHUP's handlers while it runs.
        #expect(throws: ProcessError.self) { try ChildProcess.runInPlace(["processkit-no-such-program"], environment: mark.environment) }
    }

    @Test("exit statuses are decoded alike by exec's runInPlace, ChildProcess.run and the supervisor: the code, or 128 + the signal",
          arguments: [("exit 0", 0), ("exit 7", 7), ("kill -TERM $$", 128 + SIGTERM), ("kill -KILL $$", 128 + SIGKILL), ("kill -HUP $$", 128 + SIGHUP)] as [(String, Int32)])
    func exitStatuses(script: String, status: Int32) async throws {
        #expect(try ChildProcess.runInPlace(["sh", "-c", script], environment: mark.environment) == status)
        #expect(try ChildProcess.run("/bin/sh", ["-c", script], environment: mark.environment).status == status)
        let terminal = try CommandTerminal()
        let ending = await supervisor(terminal, clock: ManualClock()).run(["sh", "-c", script], environment: mark.environment)
        #expect(ending == .exited(status))
    }

    @Test("wait statuses as a shell reports them")
    func waitStatuses() {
        #expect(exitCode(fromWaitStatus: 7 << 8) == 7)
        #expect(exitCode(fromWaitStatus: 255 << 8) == 255)
        #expect(exitCode(fromWaitStatus: SIGTERM) == 143)
        #expect(exitCode(fromWaitStatus: SIGKILL | 0x80) == 137, "a core dumped: the signal still")
    }
}

/// The foreground, which only a process in the terminal's session can give:
/// `processkit-probe` runs `Supervisor` on a pseudo-terminal of its own.
@Suite("Supervisor: the terminal's foreground")
struct SupervisorForegroundTests {
    static let probe: String = {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("processkit-probe").path
    }()

    @Test("the command's own process group has the foreground before it runs, and the supervisor's has it back after")
    func foreground() throws {
        // The command's first act: its own process group and the terminal's foreground, from /proc.
        let look = #"read pid name state parent group session tty foreground rest < /proc/$$/stat; echo "command pid=$$ group=$group foreground=$foreground""#
        let process = try TerminalProcess(Self.probe, arguments: ["sh", "-c", look], environment: ["PATH": "/usr/bin:/bin"])
        #expect(process.wait(for: Array("probe ended=".utf8), timeout: 60) != nil)
        #expect(process.finish(timeout: 60) == 0)
        let lines = String(decoding: process.output, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init)
        func numbers(_ prefix: String) -> [String: Int32] {
            guard let line = lines.first(where: { $0.hasPrefix(prefix) }) else { return [:] }
            var fields: [String: Int32] = [:]
            for field in line.split(separator: " ") {
                let parts = field.split(separator: "=", maxSplits: 1)
                if parts.count == 2, let value = Int32(parts[1]) { fields[String(parts[0])] = value }
            }
            return fields
        }
        let before = numbers("probe group="), command = numbers("command "), after = numbers("probe ended=")
        #expect(before["group"] == process.pid && before["foreground"] == process.pid, "the probe starts in the foreground: \(lines)")
        #expect(command["pid"] != nil && command["group"] == command["pid"], "a process group of its own: \(lines)")
        #expect(command["foreground"] == command["pid"], "the foreground its group's before it ran: \(lines)")
        #expect(lines.contains { $0.hasPrefix("probe ended=exited(0)") }, "\(lines)")
        #expect(after["foreground"] == process.pid, "the foreground back: \(lines)")
    }
}
