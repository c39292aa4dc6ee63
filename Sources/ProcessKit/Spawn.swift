import CSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a child process or a pseudo-terminal could not be had.
public struct ProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed and why, e.g. `cannot start /bin/x: No such file or directory`.
    public let description: String
    /// The system's error number behind it (`ENOENT`…), 0 when there is none.
    public let code: Int32

    /// An error that says `description`.
    public init(_ description: String, code: Int32 = 0) {
        self.description = description
        self.code = code
    }

    /// The status a shell exits with when it cannot start a program for
    /// this reason: 127 when the program is not found, else 126.
    public var commandStatus: Int32 { code == ENOENT ? 127 : 126 }

    /// `what: strerror(code)`.
    static func system(_ what: String, _ code: Int32 = errno) -> ProcessError {
        ProcessError("\(what): \(String(cString: strerror(code)))", code: code)
    }
}

/// What one of a child's descriptors (0, 1, 2, and any after them) is, set
/// up in the child in order (so `.same(0)` after `.open(…)` for 0 means "the
/// file just opened"). A `.same` that means one of ours must therefore name a
/// descriptor at or above the count the child is given.
public enum ChildDescriptor: Sendable, Equatable {
    /// The file at this path, opened with these flags.
    case open(String, Int32)
    /// A copy of this descriptor of ours (or of the child's, set up before).
    case same(Int32)
    /// This process's own descriptor of that number, as it is.
    case inherited

    /// Standard input, output and error as this process has them.
    public static let standard: [ChildDescriptor] = [.inherited, .inherited, .inherited]
}

/// Where a child stands among sessions and process groups.
public enum ChildGroup: Sendable, Equatable {
    /// In this process's session and process group.
    case inherited
    /// In a session of its own (and so without a controlling terminal until it opens one).
    case newSession
    /// In a process group of its own in this session; with `foreground`,
    /// that group is made the foreground of the terminal `foreground` (this
    /// process's controlling terminal) before the program runs.
    case newGroup(foreground: Int32?)
}

/// Starts `path` with `arguments` and exactly `environment`: the one way
/// this package starts a program. Descriptors 0, 1 and 2, and any after
/// them that `descriptors` lists (a browser's DevTools pipe on 3 and 4,
/// say), are as `descriptors` say and no other descriptor of this process
/// is inherited
/// (so a daemon it starts holds nothing of ours); no signal is blocked (the
/// calling thread, a dispatch worker's, may block most) and every signal
/// has its default action, ignored ones too. With `searchPath`, a `path`
/// without a slash is looked up in this process's `PATH`, as a shell does;
/// `argv[0]` is `path` as given. `group` places it among sessions and
/// process groups. Returns the child's id and `Monotonic.seconds()` just
/// before the spawn; throws with the system's error number (`code`) when it
/// cannot be started.
public func spawnChild(
    _ path: String, _ arguments: [String], environment: [String: String],
    descriptors: [ChildDescriptor] = ChildDescriptor.standard, searchPath: Bool = false, group: ChildGroup = .inherited
) throws(ProcessError) -> (pid: pid_t, started: Double) {
    do {
        return try spawnOnce(path, arguments, environment: environment, descriptors: descriptors, searchPath: searchPath, group: group)
    } catch let error where error.code == ENOSYS {
        // A C library without the spawn action for the foreground: it is given
        // just after, and a command that reads before that stops (SIGTTIN)
        // until its supervisor continues it.
        guard case .newGroup(let terminal?) = group else { throw error }
        let spawned = try spawnOnce(
            path, arguments, environment: environment, descriptors: descriptors, searchPath: searchPath, group: .newGroup(foreground: nil))
        tcsetpgrp(terminal, spawned.pid)
        return spawned
    }
}

private func spawnOnce(
    _ path: String, _ arguments: [String], environment: [String: String],
    descriptors: [ChildDescriptor], searchPath: Bool, group: ChildGroup
) throws(ProcessError) -> (pid: pid_t, started: Double) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (target, descriptor) in descriptors.enumerated() {
        switch descriptor {
        case .open(let file, let flags): posix_spawn_file_actions_addopen(&actions, Int32(target), file, flags, 0)
        case .same(let source): posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
        case .inherited: break
        }
    }
    closeInheritedDescriptors(&actions, from: Int32(descriptors.count))
    if case .newGroup(let terminal?) = group {
        let failed = cpt_spawn_add_foreground(&actions, terminal)
        guard failed == 0 else { throw .system("cannot give \(path) the terminal", failed) }
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if case .newGroup = group {
        flags |= POSIX_SPAWN_SETPGROUP
        posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    if group == .newSession {
        let failed = cpt_spawnattr_add_setsid(&attributes)
        guard failed == 0 else { throw .system("cannot start \(path) in a session of its own", failed) }
    }

    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let started = Monotonic.seconds()
    let failed = searchPath
        ? posix_spawnp(&pid, path, &actions, &attributes, argv, envp) : posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    guard failed == 0 else { throw .system("cannot start \(path)", failed) }
    return (pid, started)
}

/// Adds "close every descriptor from `lowest` up" to `actions`: glibc's
/// `posix_spawn_file_actions_addclosefrom_np` (2.34+) where there is one,
/// else a close for each descriptor open now.
private func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t, from lowest: Int32) {
    if cpt_spawn_add_close_from(&actions, lowest) == 0 { return }
    guard let folder = opendir("/proc/self/fd") else { return }
    defer { closedir(folder) }
    let own = dirfd(folder)
    while let entry = readdir(folder) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let descriptor = Int32(name), descriptor >= lowest, descriptor != own {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
}

/// The exit status a shell reports for a wait status: the exit code, or
/// 128 plus the number of the signal that ended it. `ChildProcess`,
/// `runInPlace` and `Supervisor` all report statuses through this.
public func exitCode(fromWaitStatus status: Int32) -> Int32 {
    signal(fromWaitStatus: status).map { 128 + $0 } ?? (status >> 8) & 0xff
}

/// The number of the signal that ended a child with this wait status; nil
/// when it exited.
public func signal(fromWaitStatus status: Int32) -> Int32? {
    let signal = status & 0x7f
    return signal == 0 ? nil : signal
}

/// Waits, without reaping it, until `pid` has ended: its id stays taken
/// (a zombie) until `reap`, so a signal sent meanwhile cannot reach another
/// process that got the id.
func waitForEnd(of pid: pid_t) {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
}

/// Waits for the child `pid` to end and reaps it; returns its wait status
/// (`exitCode(fromWaitStatus:)` reads it).
@discardableResult
public func reap(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 {
        guard errno == EINTR else { return status }
    }
    return status
}

/// Writes all of `bytes` to `descriptor`.
func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
            let n = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            written += n
        }
    }
}

/// One `read(2)` into `buffer`: its count, 0 at the end, -1 with errno.
func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

/// Reads `descriptor` from its start to its end.
func readWholeFile(_ descriptor: Int32) -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    var offset: off_t = 0
    while true {
        let n = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return result }
        result.append(contentsOf: chunk[..<n])
        offset += off_t(n)
    }
}
