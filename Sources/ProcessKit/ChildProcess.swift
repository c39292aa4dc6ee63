import CSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ordinary child processes: run to completion with their output captured
/// (`run`), waited for off the caller's thread (`outcome`), or left to run
/// (`startUnattended`); or kept running while their lines are awaited
/// (`LiveChildProcess`, in its own file).
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
