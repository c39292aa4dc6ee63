import CSystem
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
