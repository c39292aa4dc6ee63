import CSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a child process or a pseudo-terminal could not be had.
public struct ProcessError: Error, Sendable, CustomStringConvertible {
    /// What failed and why, e.g. `cannot start /bin/x: No such file or directory`.
    public let description: String

    /// An error that says `description`.
    public init(_ description: String) { self.description = description }

    /// `what: strerror(code)`.
    static func system(_ what: String, _ code: Int32 = errno) -> ProcessError {
        ProcessError("\(what): \(String(cString: strerror(code)))")
    }
}

/// What a child's descriptor 0, 1 or 2 is, set up in the child in order
/// (so `.same(0)` after `.open(…)` for 0 means "the file just opened").
enum ChildDescriptor {
    /// The file at this path, opened with these flags.
    case open(String, Int32)
    /// A copy of this descriptor of ours (or of the child's, set up before).
    case same(Int32)
}

/// Starts `path` with `arguments` and exactly `environment`, as a shell
/// would: descriptors 0, 1 and 2 as `descriptors` say and no other
/// descriptor of this process inherited (so a daemon it starts holds nothing
/// of ours); no signal blocked (the calling thread, a dispatch worker's, may
/// block most), every signal's default action; with `newSession`, in a
/// session of its own. Returns the child's id and `Monotonic.seconds()`
/// just before the spawn.
func spawnChild(
    _ path: String, _ arguments: [String], environment: [String: String],
    descriptors: [ChildDescriptor], newSession: Bool = false
) throws(ProcessError) -> (pid: pid_t, started: Double) {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (target, descriptor) in descriptors.enumerated() {
        switch descriptor {
        case .open(let file, let flags): posix_spawn_file_actions_addopen(&actions, Int32(target), file, flags, 0)
        case .same(let source): posix_spawn_file_actions_adddup2(&actions, source, Int32(target))
        }
    }
    closeInheritedDescriptors(&actions, from: Int32(descriptors.count))

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    if newSession {
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
    let failed = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
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
/// 128 plus the number of the signal that ended it.
func exitCode(fromWaitStatus status: Int32) -> Int32 {
    let signal = status & 0x7f
    return signal == 0 ? (status >> 8) & 0xff : 128 + signal
}

/// Waits, without reaping it, until `pid` has ended: its id stays taken
/// (a zombie) until `reap`, so a signal sent meanwhile cannot reach another
/// process that got the id.
func waitForEnd(of pid: pid_t) {
    var info = siginfo_t()
    while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
}

/// Reaps an ended `pid`; returns its wait status.
func reap(_ pid: pid_t) -> Int32 {
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
