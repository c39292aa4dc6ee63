import Foundation

/// A program run on a fresh pseudo-terminal of a given size, as a terminal
/// emulator would run it: the slave side is its controlling terminal and its
/// standard input, output and error; the bench reads the master side.
final class PtyProcess {
    let pid: pid_t
    /// The master side: what the program writes arrives here.
    let master: Int32
    /// `now()` just before the program was spawned.
    let started: Double
    /// Everything read from the master so far.
    private(set) var output: [UInt8] = []
    /// `now()` when the terminal hung up (the program exited), if it has.
    private(set) var hungUp: Double?
    private var searchedTo = 0
    private var status: Int32?

    /// TIOCSPTLCK and TIOCGPTN, which Swift cannot import (function-like macros).
    private static let setLock: UInt = 0x4004_5431, getNumber: UInt = 0x8004_5430

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `executable` on a new pseudo-terminal of `columns`×`rows`,
    /// in a session of its own, with exactly `environment`.
    init(_ executable: String, arguments: [String] = [], environment: [String: String], columns: Int = 100, rows: Int = 30) throws {
        // posix_openpt, unlockpt and ptsname by hand (pts(4)): Glibc's
        // Swift module does not export them.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.setLock, &unlock) == 0, ioctl(master, Self.getNumber, &number) == 0 else {
            if master >= 0 { close(master) }
            throw Failure(description: "cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        let name = "/dev/pts/\(number)"
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)

        // The child: a new session (setsid), then opening the slave without
        // O_NOCTTY makes it the controlling terminal; it becomes 0, 1 and 2.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID (glibc ≥ 2.26)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | setsid))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        started = now()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            close(master)
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        self.master = master
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Reads what arrives within `timeout` seconds: returns after the first
    /// read, or when the time is up. False once the terminal hung up.
    @discardableResult
    func pump(timeout: Double) -> Bool {
        guard hungUp == nil else { return false }
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, timeout * 1000).rounded(.up)))
        guard ready > 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
        if count > 0 {
            output.append(contentsOf: chunk[..<count])
            return true
        }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return true }
        hungUp = now()  // EIO: every slave descriptor is closed
        return false
    }

    /// Reads until `marker` has arrived (looking only at output not yet
    /// searched) and returns `now()` at the read that completed it; nil on
    /// timeout or hang-up.
    func wait(for marker: [UInt8], timeout: Double) -> Double? {
        let deadline = now() + timeout
        while true {
            if let end = Self.find(marker, in: output, from: max(0, searchedTo - marker.count + 1)) {
                searchedTo = end
                return now()
            }
            searchedTo = output.count
            let left = deadline - now()
            guard left > 0, pump(timeout: left) else { return nil }
        }
    }

    /// Reads until nothing has arrived for `quiet` seconds (at most `limit`
    /// seconds in all) and returns the bytes that arrived meanwhile.
    func drain(quiet: Double, limit: Double) -> [UInt8] {
        let start = output.count
        let deadline = now() + limit
        var last = now()
        while now() < deadline, now() - last < quiet {
            let before = output.count
            guard pump(timeout: min(quiet - (now() - last), deadline - now())) else { break }
            if output.count > before { last = now() }
        }
        searchedTo = output.count
        return Array(output[start...])
    }

    /// Types `bytes` into the terminal.
    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits for the program to exit, reading its output meanwhile; kills it
    /// after `timeout` seconds. Returns its wait status.
    @discardableResult
    func finish(timeout: Double) -> Int32 {
        if let status { return status }
        let deadline = now() + timeout
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if now() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                break
            }
            if !pump(timeout: 0.02) { usleep(1000) }
        }
        self.status = status
        return status
    }

    /// Where the first `needle` in `haystack` at or after `from` ends.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = from
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) {
                return index + needle.count
            }
            index += 1
        }
        return nil
    }

    /// A thread of the program: its name, where it sleeps, and its context
    /// switches (voluntary plus involuntary) so far.
    struct ThreadSample {
        let name: String
        let waitChannel: String
        let switches: Int
    }

    /// Every thread of the program now, by thread id.
    func threads() -> [Int: ThreadSample] {
        var result: [Int: ThreadSample] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for task in tasks {
            guard let tid = Int(task),
                let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            else { continue }
            var switches = 0, name = "?"
            for line in status.split(separator: "\n") {
                let value = line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                if line.hasPrefix("Name:") { name = value }
                if line.contains("ctxt_switches:") { switches += Int(value) ?? 0 }
            }
            let waitChannel = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/wchan", encoding: .utf8)) ?? "?"
            result[tid] = ThreadSample(name: name, waitChannel: waitChannel, switches: switches)
        }
        return result
    }
}
