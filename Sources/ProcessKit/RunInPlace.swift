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
    /// and SIGHUP on. Blocks the calling thread; one at a time in a process.
    /// Throws, with the system's error number, when it cannot be started
    /// (`ProcessError.commandStatus` is then what a shell would exit with).
    public static func runInPlace(_ arguments: [String], environment: [String: String]) throws(ProcessError) -> Int32 {
        guard let program = arguments.first else { throw ProcessError("no command to run") }
        // Handlers, not dispatch sources: they are in place when sigaction
        // returns, so no signal sent once the child runs is missed. One that
        // comes before the child exists is passed on once it does; none is
        // sent once it has ended.
        InPlace.child.store(0, ordering: .sequentiallyConsistent)
        InPlace.pending.store(0, ordering: .sequentiallyConsistent)
        var previous: [Int32: sigaction] = [:]
        for signal in [SIGINT, SIGQUIT] { previous[signal] = ignore(signal) }
        for signal in [SIGTERM, SIGHUP] {
            var action = sigaction(), old = sigaction()
            action.__sigaction_handler.sa_handler = InPlace.forward
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, &old)
            previous[signal] = old
        }
        defer { for (signal, old) in previous { var old = old; sigaction(signal, &old, nil) } }

        let (pid, _) = try spawnChild(program, Array(arguments.dropFirst()), environment: environment, searchPath: true)
        InPlace.child.store(pid, ordering: .sequentiallyConsistent)
        let early = InPlace.pending.exchange(0, ordering: .sequentiallyConsistent)
        if early != 0 { kill(pid, early) }
        waitForEnd(of: pid)
        InPlace.child.store(-1, ordering: .sequentiallyConsistent)
        return exitCode(fromWaitStatus: reap(pid))
    }
}

/// What `runInPlace`'s signal handler reads: only atomics, and `kill`.
private enum InPlace {
    /// The child: 0 before it is started, -1 once it has ended.
    static let child = Atomic<pid_t>(0)
    /// A signal that came before the child was started.
    static let pending = Atomic<Int32>(0)

    static let forward: @convention(c) (Int32) -> Void = { signal in
        let pid = InPlace.child.load(ordering: .sequentiallyConsistent)
        if pid > 0 {
            kill(pid, signal)
        } else if pid == 0 {
            InPlace.pending.store(signal, ordering: .sequentiallyConsistent)
        }
    }
}
