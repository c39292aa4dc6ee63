import CSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ordinary child processes: run to completion with their output captured
/// (`run`), or kept running while their lines are awaited (`LiveChildProcess`).
///
/// Every child gets exactly the environment it is given, standard input
/// from /dev/null, no other descriptor of this process, no blocked signal
/// and every signal's default action (see `spawnChild`).
public enum ChildProcess {
    /// What a finished child left behind.
    public struct Result: Sendable, Equatable {
        /// Its exit code, or 128 plus the number of the signal that ended it.
        public let status: Int32
        /// Everything it wrote to standard output, as UTF-8.
        public let stdout: String
        /// Everything it wrote to standard error, as UTF-8.
        public let stderr: String
        /// Whether it was killed for running past its time limit.
        public let timedOut: Bool
    }

    /// A clean environment for a child: only `names` of this process's
    /// environment (those it has), then `extra` over them.
    public static func environment(
        keeping names: [String] = ["PATH", "HOME"], adding extra: [String: String] = [:]
    ) -> [String: String] {
        let mine = ProcessInfo.processInfo.environment
        var result: [String: String] = [:]
        for name in names { result[name] = mine[name] }
        return result.merging(extra) { $1 }
    }

    /// Runs `path` with `arguments` and exactly `environment` to completion
    /// and returns its status and output. Blocks the calling thread.
    ///
    /// Output goes through anonymous files, not pipes, and the child
    /// inherits no other descriptor: a daemon it starts (a tmux server, say)
    /// that keeps them open cannot hold this call up, which returns as soon
    /// as the child itself has exited.
    ///
    /// - Parameters:
    ///   - timeout: seconds after which the child is killed
    ///     (`SIGKILL`, then `timedOut`); nil for no limit.
    ///   - input: the child's standard input (from an anonymous file, so
    ///     not a terminal); nil for /dev/null.
    ///   - searchPath: look a `path` without a slash up in `PATH`, as a shell does.
    public static func run(
        _ path: String, _ arguments: [String] = [], environment: [String: String], timeout: Double? = nil, input: String? = nil,
        searchPath: Bool = false
    ) throws(ProcessError) -> Result {
        let result = try runCapturing(
            path, arguments, environment: environment, timeout: timeout, input: input.map { Array($0.utf8) }, searchPath: searchPath)
        return Result(
            status: result.status, stdout: String(decoding: result.stdout, as: UTF8.self), stderr: String(decoding: result.stderr, as: UTF8.self),
            timedOut: result.timedOut)
    }

    /// What a finished child left behind, byte for byte.
    public struct Output: Sendable, Equatable {
        /// Its exit code, or 128 plus the number of the signal that ended it.
        public let status: Int32
        /// The number of the signal that ended it; nil when it exited.
        public let signal: Int32?
        /// Everything it wrote to standard output (and standard error too,
        /// in the order written, when asked for as one stream).
        public let stdout: [UInt8]
        /// Everything it wrote to standard error (nothing when it went to
        /// standard output).
        public let stderr: [UInt8]
        /// Whether it was killed for running past its time limit.
        public let timedOut: Bool
    }

    /// `run`, with standard input and output as bytes (a program that reads
    /// or writes binary data, such as a CGI program).
    public static func runCapturing(
        _ path: String, _ arguments: [String] = [], environment: [String: String], timeout: Double? = nil, input: [UInt8]? = nil,
        searchPath: Bool = false
    ) throws(ProcessError) -> Output {
        try capture(path, arguments, environment: environment, timeout: timeout, input: input, searchPath: searchPath)
    }

    /// Runs `path` with `arguments` and exactly `environment` to completion,
    /// as `runCapturing` does, without blocking the caller: the child is
    /// waited for on a thread of its own, never the main actor's or one of
    /// Swift's concurrency pool.
    ///
    /// - Parameters:
    ///   - oneStream: standard error goes where standard output goes, so
    ///     `stdout` holds both in the order they were written.
    ///   - group: where the child stands among process groups (`spawnChild`).
    public static func outcome(
        of path: String, _ arguments: [String] = [], environment: [String: String], oneStream: Bool = false,
        group: ChildGroup = .inherited
    ) async throws(ProcessError) -> Output {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Swift.Result<Output, ProcessError>, Never>) in
            Thread.detachNewThread {
                do throws(ProcessError) {
                    let output = try capture(path, arguments, environment: environment, oneStream: oneStream, group: group)
                    continuation.resume(returning: .success(output))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Starts `path` with `arguments` and exactly `environment`, every one
    /// of its standard descriptors on /dev/null, in a process group of its
    /// own, and leaves it to run: a thread of its own reaps it when it ends.
    /// For a program whose outcome nobody waits for (a browser opened for a
    /// URL); throws when it cannot be started.
    public static func startUnattended(
        _ path: String, _ arguments: [String] = [], environment: [String: String], searchPath: Bool = false
    ) throws(ProcessError) {
        let null: [ChildDescriptor] = [.open("/dev/null", O_RDONLY), .open("/dev/null", O_WRONLY), .open("/dev/null", O_WRONLY)]
        let (pid, _) = try spawnChild(
            path, arguments, environment: environment, descriptors: null, searchPath: searchPath, group: .newGroup(foreground: nil))
        Thread.detachNewThread { reap(pid) }
    }

    /// `runCapturing` and `outcome`: blocks the calling thread.
    private static func capture(
        _ path: String, _ arguments: [String], environment: [String: String], timeout: Double? = nil, input: [UInt8]? = nil,
        searchPath: Bool = false, oneStream: Bool = false, group: ChildGroup = .inherited
    ) throws(ProcessError) -> Output {
        let folder = FileManager.default.temporaryDirectory.path
        let out = cpt_anonymous_file(folder)
        let err = out >= 0 && !oneStream ? cpt_anonymous_file(folder) : -1
        let inFile = input != nil && out >= 0 ? cpt_anonymous_file(folder) : -1
        defer {
            if out >= 0 { close(out) }
            if err >= 0 { close(err) }
            if inFile >= 0 { close(inFile) }
        }
        guard out >= 0, oneStream || err >= 0, input == nil || inFile >= 0 else {
            throw .system("cannot create a file in \(folder) for a child's output")
        }
        if let input {
            writeAll(inFile, input)
            lseek(inFile, 0, SEEK_SET)
        }
        let standardInput: ChildDescriptor = inFile >= 0 ? .same(inFile) : .open("/dev/null", O_RDONLY)
        let (pid, _) = try spawnChild(
            path, arguments, environment: environment, descriptors: [standardInput, .same(out), .same(oneStream ? out : err)],
            searchPath: searchPath, group: group)

        let watch = timeout.map { KillTimer(pid: pid, after: $0) }
        waitForEnd(of: pid)
        let timedOut = watch?.disarm() ?? false
        let status = reap(pid)
        return Output(
            status: exitCode(fromWaitStatus: status), signal: signal(fromWaitStatus: status), stdout: readWholeFile(out),
            stderr: err >= 0 ? readWholeFile(err) : [], timedOut: timedOut)
    }
}

extension ProcessError: LocalizedError {
    /// `description`, so that Foundation's `localizedDescription` says it too.
    public var errorDescription: String? { description }
}

/// Kills a child after a time unless disarmed first. The child must not be
/// reaped before `disarm()` returns, so that the signal can only reach it.
private final class KillTimer: Sendable {
    /// Whether it has fired (true) or been disarmed (false); nil while armed.
    private let outcome = Mutex<Bool?>(nil)

    init(pid: pid_t, after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            self.outcome.withLock { outcome in
                guard outcome == nil else { return }
                kill(pid, SIGKILL)
                outcome = true
            }
        }
    }

    /// Stops it firing; returns whether it already had.
    func disarm() -> Bool {
        outcome.withLock { outcome in
            if outcome == nil { outcome = false }
            return outcome!
        }
    }
}

/// A child process that keeps running while its owner talks to it: its
/// standard output is collected line by line as it comes, and a line can
/// be awaited; its standard error is collected whole.
///
/// Its output is read through pipes until their end, so `exitStatus` and
/// the last lines wait for whatever it started and left holding them.
/// Released while the child still runs, it kills the child.
public final class LiveChildProcess: Sendable {
    /// The child's process id.
    public let pid: pid_t
    private let shared: Shared

    /// Starts `path` with `arguments` and exactly `environment`.
    public init(_ path: String, _ arguments: [String] = [], environment: [String: String]) throws(ProcessError) {
        var out: [Int32] = [-1, -1], err: [Int32] = [-1, -1]
        guard cpt_pipe(&out) == 0 else { throw .system("cannot make a pipe") }
        guard cpt_pipe(&err) == 0 else {
            let error = ProcessError.system("cannot make a pipe")
            out.forEach { close($0) }
            throw error
        }
        let pid: pid_t
        do throws(ProcessError) {
            (pid, _) = try spawnChild(
                path, arguments, environment: environment, descriptors: [.open("/dev/null", O_RDONLY), .same(out[1]), .same(err[1])])
        } catch {
            (out + err).forEach { close($0) }
            throw error
        }
        close(out[1])
        close(err[1])
        self.pid = pid
        let shared = Shared()
        self.shared = shared
        let (output, errors) = (out[0], err[0])
        Thread.detachNewThread { shared.readLines(from: output) }
        Thread.detachNewThread { shared.readErrors(from: errors) }
        Thread.detachNewThread {
            waitForEnd(of: pid)
            shared.ended()  // no signal is sent from here on, so reaping cannot misdirect one
            shared.exited(exitCode(fromWaitStatus: reap(pid)))
        }
    }

    deinit { signal(SIGKILL) }

    /// Every line printed on standard output so far (without its newline).
    public var lines: [String] { shared.state.withLock { $0.lines } }

    /// What it printed on standard error so far (all of it once it has exited).
    public var stderr: String { shared.state.withLock { String(decoding: $0.stderr, as: UTF8.self) } }

    /// Sends `signal` to the child, unless it has ended.
    public func signal(_ signal: Int32) {
        shared.state.withLock { state in
            if !state.ended { kill(pid, signal) }
        }
    }

    /// Sends `SIGINT`, as Ctrl-C at a terminal would.
    public func interrupt() { signal(SIGINT) }

    /// Sends `SIGTERM`.
    public func terminate() { signal(SIGTERM) }

    /// Waits for a line containing `text`, printed before or after the call;
    /// nil when none came within `seconds` or the child closed its output.
    public func line(containing text: String, within seconds: Double) async -> String? {
        await line(within: seconds) { $0.contains(text) }
    }

    /// Waits for a line that `matches`; nil when none came within `seconds`
    /// or the child closed its output.
    public func line(within seconds: Double, where matches: @escaping @Sendable (String) -> Bool) async -> String? {
        await shared.await(within: seconds) { state in
            if let line = state.lines.first(where: matches) { return .ready(line) }
            return state.outputEnded ? .ready(nil) : .waiting
        }
    }

    /// Waits for the child to exit and its output to end; returns its exit
    /// code (128 plus the signal's number when a signal ended it), or nil
    /// when that did not happen within `seconds`.
    public func exitStatus(within seconds: Double) async -> Int32? {
        await shared.await(within: seconds) { state in
            if let status = state.status, state.outputEnded, state.errorsEnded { return .ready(status) }
            return .waiting
        }
    }

    /// What one awaited thing is now.
    enum Check<Value: Sendable>: Sendable {
        case ready(Value?)
        case waiting
    }

    /// What the child has done so far, and who waits for what; shared with
    /// the threads that read and reap it.
    final class Shared: Sendable {
        struct State {
            var lines: [String] = []
            var stderr: [UInt8] = []
            var outputEnded = false
            var errorsEnded = false
            /// The child has ended (maybe not yet reaped): no more signals.
            var ended = false
            var status: Int32?
            var waiters: [Int: Waiter] = [:]
            var nextWaiter = 0
        }

        /// Someone awaiting something of the child.
        struct Waiter: Sendable {
            /// Resumes the waiter when its check now gives a value; whether it did.
            let serve: @Sendable (State) -> Bool
            /// Resumes the waiter with nil.
            let giveUp: @Sendable () -> Void
        }

        let state = Mutex(State())

        /// Waits until `check` gives a value (checked now and after every
        /// change), `seconds` pass, or the task is cancelled (then nil).
        func await<Value: Sendable>(
            within seconds: Double, _ check: @escaping @Sendable (State) -> Check<Value>
        ) async -> Value? {
            let id = state.withLock { state in
                defer { state.nextWaiter += 1 }
                return state.nextWaiter
            }
            return await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                    let waiting = state.withLock { state -> Bool in
                        // Cancelled before this: the handler found no waiter to end.
                        if Task.isCancelled {
                            continuation.resume(returning: nil)
                            return false
                        }
                        if case .ready(let value) = check(state) {
                            continuation.resume(returning: value)
                            return false
                        }
                        state.waiters[id] = Waiter(
                            serve: { state in
                                guard case .ready(let value) = check(state) else { return false }
                                continuation.resume(returning: value)
                                return true
                            },
                            giveUp: { continuation.resume(returning: nil) })
                        return true
                    }
                    if waiting {
                        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in giveUp(id) }
                    }
                }
            } onCancel: {
                giveUp(id)
            }
        }

        /// Ends waiter `id` with nil, unless it has been served.
        private func giveUp(_ id: Int) {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.giveUp()
        }

        /// Applies `change`, then serves every waiter whose check now succeeds.
        private func update(_ change: (inout State) -> Void) {
            state.withLock { state in
                change(&state)
                for (id, waiter) in state.waiters where waiter.serve(state) { state.waiters[id] = nil }
            }
        }

        func readLines(from descriptor: Int32) {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { readSome(descriptor, into: $0) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                pending.append(contentsOf: chunk[..<n])
                var complete: [String] = []
                while let newline = pending.firstIndex(of: 0x0A) {
                    complete.append(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
                if !complete.isEmpty { update { $0.lines += complete } }
            }
            close(descriptor)
            let last = pending
            update { state in
                if !last.isEmpty { state.lines.append(String(decoding: last, as: UTF8.self)) }
                state.outputEnded = true
            }
        }

        func readErrors(from descriptor: Int32) {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { readSome(descriptor, into: $0) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                let bytes = Array(chunk[..<n])
                update { $0.stderr += bytes }
            }
            close(descriptor)
            update { $0.errorsEnded = true }
        }

        func ended() { update { $0.ended = true } }

        func exited(_ status: Int32) { update { $0.status = status } }
    }
}
