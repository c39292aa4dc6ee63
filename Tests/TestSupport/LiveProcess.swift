import Foundation
import ProcessKit

/// A child process that keeps running while the test talks to it: its
/// output is collected line by line as it comes (ProcessKit's
/// `LiveChildProcess`, in the clean environment `runProcess` gives).
/// Released while it still runs, the child is killed.
public final class LiveProcess: Sendable {
    private let child: LiveChildProcess

    /// Starts `path` with `arguments`; `environment` entries are added to a
    /// clean environment holding only PATH and HOME.
    public init(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        child = try LiveChildProcess(path, arguments, environment: childEnvironment(environment))
    }

    /// Every line printed so far.
    public var lines: [String] { child.lines }

    /// What it printed on standard error (complete once it has exited).
    public var stderr: String { child.stderr }

    /// Waits for a line containing `text`; nil after `seconds` (or once the
    /// child closed its output without printing one).
    public func line(containing text: String, within seconds: Double = 20) async -> String? {
        await child.line(containing: text, within: seconds)
    }

    /// Sends Ctrl-C.
    public func interrupt() { child.interrupt() }

    public func terminate() { child.terminate() }

    /// Waits for the exit; returns the status (nil after `seconds`, then kills it).
    public func exitStatus(within seconds: Double = 30) async -> Int32? {
        if let status = await child.exitStatus(within: seconds) { return status }
        child.signal(SIGKILL)
        return nil
    }
}
