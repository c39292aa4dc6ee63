import CNcurses
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the signal handlers need, allocated once and never freed, so a
/// handler reads one pointer and calls only async-signal-safe C.
nonisolated(unsafe) let restoreState: UnsafeMutablePointer<sb_restore_state> = {
    let state = UnsafeMutablePointer<sb_restore_state>.allocate(capacity: 1)
    state.initialize(to: sb_restore_state())
    state.pointee.wake_fd = -1
    state.pointee.tty_fd = -1
    return state
}()

/// Signals that end the program. Once the program listens for them the
/// first one is delivered to it, so it can quit in order, and another kind
/// after it is taken as part of the same stop (login and systemd send
/// SIGTERM, then SIGHUP); without a listener, or for the same signal again,
/// the handler restores the terminal and lets the signal do what it did
/// before (by default, end the process). While the terminal is lent
/// (`handOver()`), SIGINT and SIGQUIT are dropped, from any sender.
let terminatingSignals: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGTERM]
/// Signals the program handles on the main queue, through the wake pipe: a
/// new window size, a request to suspend (`kill -TSTP`), and continuing
/// after a stop.
let jobControlSignals: [Int32] = [SIGWINCH, SIGTSTP, SIGCONT]
/// Signals that stop a job reading or writing its terminal from the
/// background: ignored while the program may not be suspended (see
/// `CursesTerminal.allowsSuspend`), so that no signal of the job-control
/// set stops a station. (SIGSTOP cannot be caught.)
let backgroundSignals: [Int32] = [SIGTTIN, SIGTTOU]
/// Crashes: the terminal is restored before the runtime's crash report.
let crashSignals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV]

private func terminationHandler(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?) {
    sb_handle_terminate(restoreState, signal, info)
}

private func crashHandler(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?) {
    sb_handle_fatal(restoreState, signal, info)
}

private func continueHandler(_ signal: Int32, _: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?) {
    sb_handle_continue(restoreState, signal)
}

private func windowChangeHandler(_ signal: Int32, _: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?) {
    sb_deliver(restoreState, signal)
}

/// For `atexit`: a program that exits without `stop()` still gets its
/// terminal back. (A global function: a closure here would inherit the main
/// actor, and exit runs on any thread.)
private func restoreAtExit() {
    sb_restore_now(restoreState)
}

nonisolated(unsafe) private var exitHookRegistered = false

extension CursesTerminal {
    /// Puts the terminal back as it was before curses started — modes, cursor,
    /// main screen, mouse reporting off — when a terminal is active, at most
    /// once. Async-signal-safe: for a signal handler, an `atexit` hook or a
    /// path about to crash. `stop()` is the orderly way; after this, call
    /// it anyway to free curses.
    public nonisolated static func emergencyRestore() {
        sb_restore_now(restoreState)
    }

    /// Installs the handlers — SIGWINCH, SIGTSTP and SIGCONT write to
    /// `wakeFD` (a new size; a request to suspend; back from a stop);
    /// terminating and
    /// crash signals restore `fd` to `termios` first (see
    /// `terminatingSignals`) — before `newterm`, so curses leaves those
    /// signals to us. Signals set to be ignored (nohup) stay ignored.
    static func installHandlers(fd: Int32, termios: termios?, wakeFD: Int32) {
        let state = restoreState
        state.pointee.armed = 0
        state.pointee.tty_fd = fd
        state.pointee.has_termios = 0
        if let termios {
            state.pointee.termios = termios
            state.pointee.has_termios = 1
        }
        state.pointee.wake_fd = wakeFD
        state.pointee.deliver_terminations = 0
        state.pointee.termination_pending = 0
        state.pointee.lent = 0
        state.pointee.lent_group = 0
        for signal in terminatingSignals { _ = sb_install(state, signal, terminationHandler) }
        for signal in crashSignals { _ = sb_install(state, signal, crashHandler) }
        _ = sb_install(state, SIGWINCH, windowChangeHandler)
        _ = sb_install(state, SIGTSTP, windowChangeHandler)
        _ = sb_install(state, SIGCONT, continueHandler)
        if !exitHookRegistered {
            exitHookRegistered = true
            atexit(restoreAtExit)
        }
    }

    /// Arms the emergency restore: from now on it writes `bytes` (leave the
    /// alternate screen, show the cursor…) and restores the modes.
    static func armRestore(bytes: [UInt8]) {
        let state = restoreState
        let count = min(bytes.count, MemoryLayout.size(ofValue: state.pointee.bytes))
        withUnsafeMutableBytes(of: &state.pointee.bytes) { raw in
            raw.copyBytes(from: bytes[..<count])
        }
        state.pointee.count = Int32(count)
        state.pointee.armed = 1
    }

    /// Sends the first terminating signal to the wake pipe from now on.
    static func deliverTerminations() {
        restoreState.pointee.deliver_terminations = 1
    }

    /// Signals no longer write to the wake pipe; terminating ones restore
    /// the terminal and end the process.
    static func detachWakePipe() {
        restoreState.pointee.deliver_terminations = 0
        restoreState.pointee.wake_fd = -1
    }

    /// Stops the whole process group as the terminal's Ctrl-Z would (so a
    /// shell waiting on a wrapper sees the job stop too), with SIGTSTP's
    /// default action; returns once the group is continued (`fg`), or after
    /// half a second when nothing stopped it (no shell controls the group).
    static func stopProcessGroup() {
        sb_stop_process_group(restoreState, 500)
    }

    /// The process group of the program the terminal is lent to (see
    /// `handOver()`), killed should a signal end this process; nil once it
    /// is gone.
    public nonisolated static func setLentGroup(_ group: pid_t?) {
        restoreState.pointee.lent_group = group ?? 0
    }

    /// Disarms the restore and puts back the handlers after an orderly stop.
    nonisolated static func disarmRestore() {
        let state = restoreState
        state.pointee.deliver_terminations = 0
        state.pointee.wake_fd = -1
        state.pointee.armed = 0
        for signal in terminatingSignals + crashSignals + jobControlSignals + backgroundSignals { sb_uninstall(state, signal) }
    }

    /// Ignores SIGTTIN and SIGTTOU (`ignoring`), or puts back what they did
    /// before. Programs this one starts get their default action back
    /// (spawning resets it), as they would after a handler.
    static func ignoreBackgroundSignals(_ ignoring: Bool) {
        for signal in backgroundSignals {
            if ignoring { _ = sb_ignore(restoreState, signal) } else { sb_uninstall(restoreState, signal) }
        }
    }

    /// Whether SIGTTIN and SIGTTOU are both ignored now.
    static var ignoresBackgroundSignals: Bool { backgroundSignals.allSatisfy { sb_is_ignored($0) != 0 } }

    /// Whether the backend's SIGWINCH handler is the one installed.
    static var handlesWindowChange: Bool { sb_handler_is(SIGWINCH, windowChangeHandler) != 0 }

    /// Whether the backend's SIGTSTP handler (a request to suspend, through
    /// the wake pipe) is the one installed.
    static var handlesSuspendRequest: Bool { sb_handler_is(SIGTSTP, windowChangeHandler) != 0 }

    /// Whether the backend's SIGTERM handler is the one installed.
    static var handlesTermination: Bool { sb_handler_is(SIGTERM, terminationHandler) != 0 }
}
