#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A terminal as a session belongs to it: the name people see (`pts/3`)
/// and its lifetime, which tells this terminal from a later one that the
/// kernel gives the same name.
///
/// The lifetime is the terminal's session leader (the shell or login the
/// terminal was opened for) by this machine and boot, its process id and
/// its start time: `HOST/BOOT/PID/START`. It ends when that process does.
/// Nil where `/proc` cannot say; the name alone then keys the session.
public struct TerminalIdentity: Hashable, Sendable {
    public let name: String
    public let lifetime: String?

    public init(name: String, lifetime: String?) {
        self.name = name
        self.lifetime = lifetime
    }

    /// This process's controlling terminal, or nil when it has none (cron,
    /// `ssh host cmd`, a `setsid` child), whatever its descriptors are.
    public static func controlling() -> TerminalIdentity? {
        guard let own = ProcessStat.read(pid: getpid()), own.terminal != 0 else { return nil }
        let name = terminalName(device: own.terminal)
        return name.map { TerminalIdentity(name: $0, lifetime: lifetime(leader: own.session)) }
    }

    /// The terminal on `descriptor`, as the chooser that draws on it sees
    /// it: the controlling terminal when it is that one; otherwise its name,
    /// living as long as this process's own session.
    public static func on(_ descriptor: Int32) -> TerminalIdentity? {
        guard isatty(descriptor) == 1, let path = ttyname(descriptor).map({ String(cString: $0) }) else { return nil }
        var info = stat()
        if fstat(descriptor, &info) == 0, let controlling = controlling(), let own = ProcessStat.read(pid: getpid()),
            UInt64(info.st_rdev) == own.terminal
        {
            return controlling
        }
        return TerminalIdentity(name: shortName(path), lifetime: lifetime(leader: getsid(0)))
    }

    /// Whether the terminal that `lifetime` names is still open: false when
    /// it is of this machine's earlier boot or its session leader is gone;
    /// nil when that cannot be told here (another machine's, not a lifetime
    /// this program wrote, or no `/proc`).
    public static func isOpen(_ lifetime: String) -> Bool? {
        let parts = lifetime.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, let pid = Int32(parts[2]), pid > 0, let start = UInt64(parts[3]), let boot = bootID(),
            parts[0] == hostName()
        else { return nil }
        guard parts[1] == boot else { return false }
        guard let leader = ProcessStat.read(pid: pid) else { return false }
        return leader.start == start
    }

    /// `HOST/BOOT/PID/START` for the session led by `leader`; nil where `/proc` cannot say.
    static func lifetime(leader: pid_t) -> String? {
        guard leader > 0, let boot = bootID(), let stat = ProcessStat.read(pid: leader) else { return nil }
        return "\(hostName())/\(boot)/\(leader)/\(stat.start)"
    }

    /// This terminal as a shared store knows it: `STATION/NAME`
    /// (`lab-3/tty1`), so that `tty1` on two stations are two sessions.
    public func at(station: String) -> TerminalIdentity {
        TerminalIdentity(name: station + "/" + name, lifetime: lifetime)
    }

    /// This machine's name (`uname -n`), with no `/` in it.
    public static func hostName() -> String {
        var names = utsname()
        uname(&names)
        let name = withUnsafeBytes(of: names.nodename) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return String(name.map { $0 == "/" ? "_" : $0 })
    }

    /// This boot's id, from `/proc/sys/kernel/random/boot_id`.
    static func bootID() -> String? {
        guard let text = ProcFile.read("/proc/sys/kernel/random/boot_id") else { return nil }
        let id = String(text.prefix { $0 != "\n" })
        return id.isEmpty ? nil : id
    }

    /// The name of the terminal device `device` (a `dev_t`): a standard
    /// descriptor's that is it, else worked out from its numbers (`pts/N`,
    /// `ttyN`, `ttySN`).
    static func terminalName(device: UInt64) -> String? {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            var info = stat()
            if isatty(descriptor) == 1, fstat(descriptor, &info) == 0, UInt64(info.st_rdev) == device,
                let path = ttyname(descriptor)
            {
                return shortName(String(cString: path))
            }
        }
        // dev_t as glibc encodes it.
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        switch major {
        case 136...143: return "pts/\((major - 136) * 256 + minor)"
        case 4 where minor < 64: return "tty\(minor)"
        case 4: return "ttyS\(minor - 64)"
        default: return "tty(\(major):\(minor))"
        }
    }

    private static func shortName(_ path: String) -> String { path.hasPrefix("/dev/") ? String(path.dropFirst(5)) : path }
}

/// A running process by this boot, its id and its start time:
/// `BOOT/PID/START`, which tells it from a later process the kernel gives
/// the same id.
public enum ProcessLifetime {
    /// The lifetime of process `pid`; nil where `/proc` cannot say.
    public static func of(_ pid: pid_t) -> String? {
        guard pid > 0, let boot = TerminalIdentity.bootID(), let stat = ProcessStat.read(pid: pid) else { return nil }
        return "\(boot)/\(pid)/\(stat.start)"
    }
}

/// The fields of `/proc/PID/stat` a session's lifetime needs.
struct ProcessStat {
    /// The session id (its leader's process id).
    let session: pid_t
    /// The controlling terminal's device number; 0 for none.
    let terminal: UInt64
    /// When the process started, in clock ticks since boot.
    let start: UInt64

    static func read(pid: pid_t) -> ProcessStat? {
        guard let text = ProcFile.read("/proc/\(pid)/stat") else { return nil }
        return parse(text)
    }

    /// Parses a stat line; the command's name, in parentheses, may hold anything but is followed by the last `)`.
    static func parse(_ text: String) -> ProcessStat? {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3 of proc(5)); session is field 6, tty_nr 7, starttime 22.
        guard fields.count > 19, let session = Int32(fields[3]), let terminal = Int64(fields[4]), let start = UInt64(fields[19]) else {
            return nil
        }
        return ProcessStat(session: session, terminal: UInt64(bitPattern: terminal), start: start)
    }
}

/// Reads a small file of `/proc` whole.
enum ProcFile {
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while bytes.count < 64 * 1024 {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
