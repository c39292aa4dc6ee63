import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program run on a fresh pseudo-terminal of a given size, as a terminal
/// emulator would run it: in a session of its own, the slave its controlling
/// terminal and its standard input, output and error; the owner reads and
/// types at the master (`terminal`).
///
/// Times (`started`, `hungUp`, what `wait(for:timeout:)` returns) are
/// `Monotonic.seconds()`. Not thread-safe: one owner. Released while the
/// program still runs, it kills the program.
public final class TerminalProcess {
    /// The program's process id.
    public let pid: pid_t
    /// The pseudo-terminal it runs on.
    public let terminal: PseudoTerminal
    /// `Monotonic.seconds()` just before the program was spawned.
    public let started: Double
    private var status: Int32?

    /// Everything read from the terminal so far.
    public var output: [UInt8] { terminal.received }
    /// `Monotonic.seconds()` when the terminal hung up (the program and
    /// anything it started have closed it: it exited), if it has.
    public var hungUp: Double? { terminal.hungUp }

    /// Starts `executable` with `arguments` and exactly `environment` on a
    /// new pseudo-terminal of `columns`×`rows`, in a session of its own.
    public convenience init(
        _ executable: String, arguments: [String] = [], environment: [String: String], columns: Int = 100, rows: Int = 30
    ) throws(ProcessError) {
        try self.init(executable, arguments: arguments, environment: environment, on: try PseudoTerminal(columns: columns, rows: rows))
    }

    /// Starts `executable` on `terminal`, which another program may have run
    /// on before (the same terminal with a new session on it, as after a
    /// logout and a new login).
    public init(_ executable: String, arguments: [String] = [], environment: [String: String], on terminal: PseudoTerminal) throws(ProcessError) {
        terminal.startingAgain()
        // The child: a new session (setsid), then opening the slave without
        // O_NOCTTY makes it the controlling terminal; it becomes 0, 1 and 2.
        (pid, started) = try spawnChild(
            executable, arguments, environment: environment,
            descriptors: [.open(terminal.slavePath, O_RDWR), .same(0), .same(0)], group: .newSession)
        // Only the program holds the slave now: its exit hangs the terminal up.
        terminal.closeSlave()
        self.terminal = terminal
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            _ = reap(pid)
        }
    }

    /// Reads what arrives within `timeout` seconds: returns after the first
    /// read, or when the time is up. False once the terminal hung up.
    @discardableResult
    public func pump(timeout: Double) -> Bool { terminal.pump(timeout: timeout) }

    /// Reads until `marker` has arrived (looking only at output not yet
    /// searched) and returns `Monotonic.seconds()` at the read that
    /// completed it; nil on timeout or hang-up.
    public func wait(for marker: [UInt8], timeout: Double) -> Double? { terminal.read(until: marker, timeout: timeout) }

    /// Reads until nothing has arrived for `quiet` seconds (at most `limit`
    /// seconds in all) and returns the bytes that arrived meanwhile.
    public func drain(quiet: Double, limit: Double) -> [UInt8] { terminal.readUntilQuiet(quiet: quiet, limit: limit) }

    /// Types `bytes` into the terminal.
    public func send(_ bytes: [UInt8]) { terminal.send(bytes) }

    /// Waits for the program to exit, reading its output meanwhile; kills it
    /// after `timeout` seconds. Returns its wait status (`waitpid`'s).
    @discardableResult
    public func finish(timeout: Double) -> Int32 {
        if let status { return status }
        let deadline = Monotonic.seconds() + timeout
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Monotonic.seconds() > deadline {
                kill(pid, SIGKILL)
                status = reap(pid)
                break
            }
            if !pump(timeout: 0.02) { usleep(1000) }
        }
        // What it wrote just before it exited may still wait in the terminal.
        var read: Int
        repeat {
            read = terminal.received.count
            pump(timeout: 0)
        } while terminal.received.count > read
        self.status = status
        return status
    }

    /// Where the first `needle` in `haystack` at or after `from` ends.
    public static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        PseudoTerminal.find(needle, in: haystack, from: from)
    }

    /// A thread of the program: its name, where it sleeps, and its context
    /// switches (voluntary plus involuntary) so far.
    public struct ThreadSample: Sendable {
        /// The thread's name (`Name:` in its status).
        public let name: String
        /// The kernel function it sleeps in (`wchan`), or "0" when running.
        public let waitChannel: String
        /// Voluntary plus involuntary context switches so far.
        public let switches: Int
    }

    /// Every thread of the program now, by thread id (from /proc).
    public func threads() -> [Int: ThreadSample] {
        var result: [Int: ThreadSample] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let tid = Int(task),
                let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            else { continue }
            var switches = 0, name = "?"
            for line in status.split(separator: "\n") {
                let value = line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                if line.hasPrefix("Name:") { name = value }
                if line.contains("ctxt_switches:") { switches += Int(value) ?? 0 }
            }
            let waitChannel = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? "?"
            result[tid] = ThreadSample(name: name, waitChannel: waitChannel, switches: switches)
        }
        return result
    }
}
