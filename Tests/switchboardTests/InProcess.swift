import Foundation
import Synchronization
import SwitchboardCore
import TestBasics
import TestSupport
@testable import switchboard

/// Collects what a command writes, for a test to read.
final class CollectedOutput: TextOutput {
    private let text = Mutex("")

    func write(_ more: String) { text.withLock { $0 += more } }

    var contents: String { text.withLock { $0 } }

    /// The complete lines written so far.
    var lines: [String] { contents.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

/// Standard input given as a string, read as descriptor 0 would be.
final class GivenInput: LineInput {
    private let bytes: Mutex<ArraySlice<UInt8>>

    init(_ text: String) { bytes = Mutex(Array(text.utf8)[...]) }

    init(bytes: [UInt8]) { self.bytes = Mutex(bytes[...]) }

    func readLineBytes(limit: Int) -> (bytes: [UInt8], truncated: Bool)? {
        bytes.withLock { rest in
            guard !rest.isEmpty else { return nil }
            let end = rest.firstIndex(of: UInt8(ascii: "\n"))
            let line = rest[..<(end ?? rest.endIndex)]
            rest = end.map { rest[($0 + 1)...] } ?? []
            return (Array(line.prefix(limit)), line.count > limit)
        }
    }
}

/// A test's `CommandIO`: the given environment (with PATH and HOME, as a
/// child of the tests gets them), standard input from a string, output
/// and error collected, no terminal unless one is given.
struct TestIO: Sendable {
    let stdout = CollectedOutput()
    let stderr = CollectedOutput()
    let io: CommandIO

    init(environment: [String: String], input: String? = nil, terminal: TerminalIdentity? = nil) {
        let process = ProcessInfo.processInfo.environment
        var base = ["PATH": process["PATH"] ?? "/usr/bin:/bin"]
        base["HOME"] = process["HOME"]
        io = CommandIO(
            environment: base.merging(environment) { $1 }, stdout: stdout, stderr: stderr, stdin: GivenInput(input ?? ""),
            stdinIsTerminal: false, stdoutIsTerminal: false, terminal: { terminal }, takesSignals: false, pinRounds: testPINRounds,
            workingDirectory: environment["PWD"] ?? "/")
    }

    /// Runs `arguments` as `switchboard` would, in this process, on a
    /// `CommandExecutor` of its own.
    func run(_ arguments: [String]) async -> ProcessResult {
        let io = io
        let status = await withTaskExecutorPreference(CommandExecutor()) { await Switchboard.run(arguments, io: io) }
        return ProcessResult(status: status, stdout: stdout.contents, stderr: stderr.contents)
    }
}

/// Runs a command's jobs on a serial dispatch queue, not on the few
/// threads all tests' async code shares: a command's blocking work (SQLite,
/// PIN hashing) then never holds up a test's in-process provider, as a
/// process of its own would not.
final class CommandExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "switchboard command")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// `switchboard` running in this process, in a task: its lines as they come, and its status.
final class RunningCommand: Sendable {
    let test: TestIO
    private let task: Task<Int32, Never>

    init(_ arguments: [String], environment: [String: String], input: String? = nil) {
        let test = TestIO(environment: environment, input: input)
        self.test = test
        let io = test.io
        task = Task(executorPreference: CommandExecutor()) { await Switchboard.run(arguments, io: io) }
    }

    var lines: [String] { test.stdout.lines }
    var stderr: String { test.stderr.contents }

    /// The first line of standard output containing `text`, waiting for it up to `seconds`.
    func line(containing text: String, within seconds: Double = 20) async -> String? {
        try? await waitUntil("a line containing \(text)", within: seconds) { lines.contains { $0.contains(text) } }
        return lines.first { $0.contains(text) }
    }

    /// The exit status, once it has ended.
    func exitStatus() async -> Int32 { await task.value }

    /// Cancels the command's task, as an interrupt ends a command that follows; returns its status.
    func stop() async -> Int32 {
        task.cancel()
        return await task.value
    }
}

extension CLI {
    /// The environment `run` gives a command: this database and `session`, plus `environment`.
    func environment(session: String = "tty-test", _ environment: [String: String] = [:]) -> [String: String] {
        ["SWITCHBOARD_DATABASE": path, "SWITCHBOARD_SESSION": session].merging(environment) { $1 }
    }

    /// Runs `switchboard` in this process against the database, as `spawn` runs the built program.
    func run(
        _ arguments: String..., session: String = "tty-test", environment: [String: String] = [:], input: String? = nil,
        terminal: TerminalIdentity? = nil
    ) async -> ProcessResult {
        await TestIO(environment: self.environment(session: session, environment), input: input, terminal: terminal).run(arguments)
    }

    /// Starts `switchboard` in this process, in a task, against the database.
    func start(_ arguments: String..., session: String = "tty-test", environment: [String: String] = [:]) -> RunningCommand {
        RunningCommand(arguments, environment: self.environment(session: session, environment))
    }
}
