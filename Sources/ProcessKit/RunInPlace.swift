import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ChildProcess {
    /// Runs `arguments` (the program looked up in `PATH`, as a shell does)
    /// with exactly `environment` in this process's place, waits for it and
    /// returns the status a shell would report: its exit code, or 128 plus
    /// the number of the signal that ended it (`exitCode(fromWaitStatus:)`).
    /// It gets this process's standard input, output and error and no other
    /// descriptor, no blocked signal and every signal's default action
    /// (`spawnChild`). While it runs, this process ignores SIGINT and
    /// SIGQUIT (the terminal sends them to the child too) and passes SIGTERM
    /// and SIGHUP on. Blocks the calling thread; throws, with the system's
    /// error number, when it cannot be started (`ProcessError.commandStatus`
    /// is then what a shell would exit with).
    public static func runInPlace(_ arguments: [String], environment: [String: String]) throws(ProcessError) -> Int32 {
        guard let program = arguments.first else { throw ProcessError("no command to run") }
        let forwarded = [SIGTERM, SIGHUP], ignored = [SIGINT, SIGQUIT]
        var previous: [Int32: sigaction] = [:]
        for signal in forwarded + ignored { previous[signal] = ignore(signal) }
        defer { for (signal, old) in previous { var old = old; sigaction(signal, &old, nil) } }
        // Listening before the spawn: a signal that comes before the child
        // exists is passed on once it does; none is sent once it has ended.
        let child = Mutex<(pid: pid_t, pending: Int32, ended: Bool)>((0, 0, false))
        let sources = forwarded.map { signal in
            let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
            source.setEventHandler {
                child.withLock { child in
                    if child.ended { return }
                    if child.pid > 0 { kill(child.pid, signal) } else { child.pending = signal }
                }
            }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }

        let (pid, _) = try spawnChild(program, Array(arguments.dropFirst()), environment: environment, searchPath: true)
        child.withLock { child in
            child.pid = pid
            if child.pending != 0 { kill(pid, child.pending) }
        }
        waitForEnd(of: pid)
        child.withLock { $0.ended = true }
        return exitCode(fromWaitStatus: reap(pid))
    }
}
