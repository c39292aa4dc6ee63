import Foundation
import ProcessKit

// Measuring programs as a person or a script meets them: whole processes
// from exec to exit, what the kernel says about their memory and CPU, and
// a keystroke's frame through a pseudo-terminal.

/// A whole process's run: exec to exit, its peak resident memory, its status.
struct ProcessRun {
    let seconds: Double
    /// Peak resident set (`ru_maxrss`), in bytes.
    let peakBytes: Int
    let status: Int32
}

/// Runs `program ARGUMENTS` with `environment` to its exit through
/// `probe` (`peak-probe`: a small process spawns it, so that its peak is
/// its own, not this big one's), standard output into `output`
/// (/dev/null when nil), and says how long it took and how much memory it
/// held at most.
func runWhole(_ program: String, _ arguments: [String], environment: [String: String], probe: String, output: String? = nil) throws -> ProcessRun {
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-probe-\(getpid())").path
    defer { unlink(report) }
    let fd = open(report, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw BenchError("cannot make \(report)") }
    close(fd)
    let (pid, _) = try spawnChild(
        probe, [output ?? "/dev/null", program] + arguments, environment: environment,
        descriptors: [.open("/dev/null", O_RDONLY), .open(report, O_WRONLY | O_TRUNC), .inherited])
    let status = reap(pid)
    let fields = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: " ")
    guard exitCode(fromWaitStatus: status) == 0, fields.count == 3, let seconds = Double(fields[0]), let peak = Int(fields[1]),
        let code = Int32(fields[2].trimmingCharacters(in: .whitespacesAndNewlines))
    else { throw BenchError("peak-probe could not run \(program)") }
    return ProcessRun(seconds: seconds, peakBytes: peak * 1024, status: code)
}

/// What /proc says about a running process.
enum ProcStatus {
    /// Resident memory now (`VmRSS`) and at most so far (`VmHWM`), in bytes.
    static func memory(_ pid: pid_t) -> (resident: Int, peak: Int) {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return (Int(line.split(separator: " ").dropFirst().first { Int($0) != nil } ?? "") ?? 0) * 1024
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    /// CPU seconds the process has used (user and system, every thread).
    static func cpu(_ pid: pid_t) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Starts the peak (`VmHWM`) again from what the process holds now.
    static func resetPeak(_ pid: pid_t) {
        let fd = open("/proc/\(pid)/clear_refs", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = write(fd, "5", 1)
        close(fd)
    }

    /// Waits until the process has used no CPU for `quiet` seconds (at
    /// most `limit` seconds in all), pumping `terminal` meanwhile if given;
    /// returns its CPU seconds then.
    @discardableResult
    static func waitUntilIdle(_ pid: pid_t, quiet: Double, limit: Double, pumping terminal: TerminalProcess? = nil) -> Double {
        let deadline = now() + limit
        var last = cpu(pid), since = now()
        while now() < deadline, now() - since < quiet {
            if let terminal { terminal.pump(timeout: 0.05) } else { usleep(50_000) }
            let used = cpu(pid)
            if used != last { (last, since) = (used, now()) }
        }
        return last
    }
}

/// Types `bytes` into `process`'s terminal and returns the seconds until
/// the last byte of the frame that follows arrived: nothing more came for
/// `quiet` seconds after it. Nil when no frame came within two seconds.
func keystrokeToFrame(_ process: TerminalProcess, _ bytes: [UInt8], quiet: Double) -> Double? {
    let sent = now()
    process.send(bytes)
    var last: Double?
    while true {
        let waited = last.map { quiet - (now() - $0) } ?? (2 - (now() - sent))
        guard waited > 0 else { break }
        let before = process.output.count
        guard process.pump(timeout: waited) else { break }
        if process.output.count > before { last = now() }
    }
    return last.map { $0 - sent }
}

/// The `p`-th percentile (0–100) of `values`, nearest rank.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count - 1, max(0, rank - 1))]
}

/// Bytes as megabytes (2^20).
func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
