import CSystem
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `arguments` (looked up in `PATH` like a shell does) with exactly
/// `environment`, waits for it and returns the status a shell would report:
/// its exit status, or 128 + the number of the signal that ended it; 127
/// when it cannot be found and 126 when it cannot be run (said on standard
/// error). Standard input, output and error are inherited, no other
/// descriptor; the child starts with no signal blocked and default signal
/// actions. While it runs, this process ignores SIGINT and SIGQUIT (the
/// terminal sends them to the child too) and passes SIGTERM and SIGHUP on.
func runChild(_ arguments: [String], environment: [String: String]) -> Int32 {
    let forwarded = [SIGTERM, SIGHUP], ignored = [SIGINT, SIGQUIT]
    var defaults = [SIGPIPE]
    var previous: [Int32: sigaction] = [:]
    for signal in forwarded + ignored {
        let old = ignore(signal)
        previous[signal] = old
        // A signal this process was started ignoring stays ignored in the child.
        if !old.ignores { defaults.append(signal) }
    }
    defer { for (signal, old) in previous { var old = old; sigaction(signal, &old, nil) } }
    // Listening before the spawn: a signal that comes before the child exists is passed on once it does.
    let child = Atomic<pid_t>(0), pending = Atomic<Int32>(0)
    let sources = forwarded.map { signal in
        let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
        source.setEventHandler {
            let pid = child.load(ordering: .acquiring)
            if pid > 0 { kill(pid, signal) } else { pending.store(signal, ordering: .releasing) }
        }
        source.resume()
        return source
    }
    defer { sources.forEach { $0.cancel() } }

    let pid: pid_t
    switch spawnChild(arguments, environment: environment, defaultSignals: defaults, ownProcessGroup: false, foreground: nil) {
    case .success(let spawned): pid = spawned
    case .failure(let failure):
        FileHandle.standardError.write(Data("switchboard: \(failure)\n".utf8))
        return failure.status
    }
    child.store(pid, ordering: .releasing)
    let early = pending.load(ordering: .acquiring)
    if early != 0 { kill(pid, early) }
    return shellStatus(waitForExit(pid))
}

/// Sets `signal` to be ignored; returns the action it had, for
/// `sigaction(signal, &old, nil)` to put back.
func ignore(_ signal: Int32) -> sigaction {
    var ignore = sigaction(), old = sigaction()
    ignore.__sigaction_handler.sa_handler = SIG_IGN
    sigaction(signal, &ignore, &old)
    return old
}

extension sigaction {
    /// Whether this action ignores its signal.
    var ignores: Bool { unsafeBitCast(__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) }
}

/// Why a child could not be started.
struct SpawnFailure: Error, CustomStringConvertible {
    let program: String
    let code: Int32

    /// 127 when the program is not found, 126 when it cannot be run, as a shell says.
    var status: Int32 { code == ENOENT ? 127 : 126 }
    var description: String { "cannot run \(program.displaySafe): \(String(cString: strerror(code)))" }
}

/// Starts `arguments` (looked up in `PATH`) with exactly `environment`:
/// standard input, output and error inherited and no other descriptor, no
/// signal blocked, `defaultSignals` at their default action (handlers are
/// reset by exec anyway; this resets ignored ones); in a process group of
/// its own when `ownProcessGroup`, which is made the foreground of the
/// terminal `foreground` before the program runs.
func spawnChild(
    _ arguments: [String], environment: [String: String], defaultSignals: [Int32], ownProcessGroup: Bool, foreground: Int32?
) -> Result<pid_t, SpawnFailure> {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if cpt_spawn_add_close_from(&actions, 3) != 0 {
        for descriptor in openDescriptors() where descriptor > 2 { posix_spawn_file_actions_addclose(&actions, descriptor) }
    }
    if let foreground, ownProcessGroup {
        let failed = cpt_spawn_add_foreground(&actions, foreground)
        if failed != 0 { return .failure(SpawnFailure(program: arguments[0], code: failed)) }
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), defaults = sigset_t()
    sigemptyset(&none)
    sigemptyset(&defaults)
    for signal in defaultSignals { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if ownProcessGroup {
        flags |= POSIX_SPAWN_SETPGROUP
        posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let failed = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard failed == 0 else { return .failure(SpawnFailure(program: arguments[0], code: failed)) }
    return .success(pid)
}

/// Waits for `pid` to end and returns its wait status.
func waitForExit(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
        guard errno == EINTR else { return 1 << 8 }  // not ours to wait for: as if it failed
    }
    return status
}

/// A wait status as a shell reports it: the exit status, or 128 + the signal.
func shellStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// The descriptors open in this process now.
private func openDescriptors() -> [Int32] {
    guard let folder = opendir("/proc/self/fd") else { return Array(3..<256) }
    defer { closedir(folder) }
    let own = dirfd(folder)
    var descriptors: [Int32] = []
    while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let descriptor = Int32(name), descriptor != own { descriptors.append(descriptor) }
    }
    return descriptors
}
