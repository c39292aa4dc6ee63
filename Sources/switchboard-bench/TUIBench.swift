import Foundation
import ProcessKit
import Store
import Services
import ChooserApp
import ChooserUI
import SwitchboardCore
import TerminalUI

/// `tui`: the chooser's performance figures, each beside its anchor.
///
/// - `first-frame-ratio`: exec to the first complete frame of `switchboard`
///   on a 1,000-account database, over the same for `curses-baseline`
///   (initscr, refresh, endwin), medians of interleaved runs on a 100×30
///   pseudo-terminal. Ours is complete when the key bar's last label
///   ("quit") has arrived — the frame is one doupdate, written top to
///   bottom; the baseline's when its refresh's output (the clear,
///   `ESC[2J`, the last thing that refresh writes) has arrived.
/// - `status-ratio`: exec to exit of `switchboard status` on that
///   database (a whole command: Foundation, GRDB, the store opened and
///   read), over exec to exit of `c-baseline` (a C program that prints a
///   line), same runs.
/// - `bytes-ratio`: bytes `switchboard` sends when `j` moves the selection
///   one row, over what ncurses sends for the same two frames painted
///   naively by `curses-frames`; both read until the terminal is quiet.
/// - `filter-100k-ms`: reduce plus `Screen.draw` per keystroke while typing
///   a filter over 100,000 accounts, worst keystroke (median of repeats).
/// - `idle-wakeups-per-s`: context switches of all of the chooser's
///   threads while it sits idle, per second (see `idleFloor`).
///
/// Supporting lines give the absolute times and bytes, the anchors', the
/// exit time of `switchboard --version` (what any command costs to start),
/// each keystroke's time, and which thread woke while idle.
///
/// Measure the build people install: `swift build -c release
/// --static-swift-stdlib`, then `switchboard-bench tui` from that folder.
enum TUIBench {
    struct Options {
        var runs = 15
        var idleSeconds = 5.0
        var accounts = 1000
        var filterAccounts = 100_000
        var dump = false
        /// A folder to keep the database (and config/data folders) in, made once and reused.
        var workspace: String?
    }

    static let columns = 100, rows = 30
    /// What an idle Swift program on Linux cannot go below: libdispatch's
    /// internal workqueue (no kernel workqueue on Linux) arms a 1 Hz timer on
    /// its manager thread to check its worker pools, once the pool is first
    /// used (swift-corelibs-libdispatch, src/event/workqueue.c,
    /// `_dispatch_workq_init_once`). A program that only starts one Task and
    /// parks shows the same 1 wake-up per second. Anything above this
    /// (plus slack for a retiring worker thread) is the chooser's own.
    static let idleFloor = 1.5
    static let quitLabel = Array("quit".utf8)
    static let clearScreen = Array("\u{1B}[2J".utf8)
    /// Sequences that clear the whole screen or all of it below the cursor.
    static let clears = ["\u{1B}[2J", "\u{1B}[J", "\u{1B}[0J", "\u{1B}[3J"].map { Array($0.utf8) }

    static func run(_ arguments: [String]) throws {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            switch name {
            case "--runs": options.runs = iterator.next().flatMap(Int.init) ?? options.runs
            case "--idle": options.idleSeconds = iterator.next().flatMap(Double.init) ?? options.idleSeconds
            case "--dump": options.dump = true
            case "--workspace": options.workspace = iterator.next()
            default:
                FileHandle.standardError.write(Data("tui: unexpected \(name)\n".utf8))
                exit(64)
            }
        }
        let tools = try Tools()
        let loadBefore = loadAverage()
        let folder = options.workspace ?? FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-tui-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder + "/config", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        defer { if options.workspace == nil { try? FileManager.default.removeItem(atPath: folder) } }
        let databasePath = folder + "/data/switchboard.sqlite"
        let setupStart = now()
        let reused = FileManager.default.fileExists(atPath: databasePath)
        if !reused { try makeDatabase(path: databasePath, accounts: options.accounts) }
        let setup = now() - setupStart
        let environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", "TERM": "xterm-256color",
            "SWITCHBOARD_DATABASE": databasePath, "SWITCHBOARD_SESSION": "bench",
            "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data",
        ]

        let first = try firstFrame(tools, environment: environment, runs: options.runs)
        let bytes = try bytesForOneRow(tools, environment: environment, dump: options.dump)
        let filter = try filterTyping(accounts: options.filterAccounts)
        let idle = try idleWakeups(tools, environment: environment, seconds: options.idleSeconds)

        let firstRatio = first.ours / first.baseline
        let statusRatio = first.statusExit / first.cExit
        let bytesRatio = Double(bytes.ours) / Double(bytes.anchor)
        let table: [[String]] = [
            ["figure", "ours", "anchor", "ratio", "goal", ""],
            ["first frame, ms (median of \(options.runs))", fixed(first.ours * 1000, 1), fixed(first.baseline * 1000, 1),
             fixed(firstRatio, 2), "≤ 3", verdict(firstRatio <= 3)],
            ["switchboard status, ms to exit (anchor: C)", fixed(first.statusExit * 1000, 1), fixed(first.cExit * 1000, 1),
             fixed(statusRatio, 2), "—", ""],
            ["bytes for one row down (j)", "\(bytes.ours)", "\(bytes.anchor)", fixed(bytesRatio, 2), "≤ 1.1",
             verdict(bytesRatio <= 1.1 && !bytes.oursCleared)],
            ["filter 100k, worst keystroke ms", fixed(filter.worst * 1000, 2), "—", "—", "≤ 16", verdict(filter.worst <= 0.016)],
            ["idle wake-ups per s", fixed(idle.perSecond, 1), "—", "—", "≈ 0 (1 Hz floor)", verdict(idle.perSecond <= idleFloor)],
        ]
        printTable(table)
        print("")
        print("build: \(tools.configuration), Swift standard library \(tools.staticStdlib ? "static" : "dynamic")")
        print("load-average-1m: \(loadBefore) before, \(loadAverage()) after (\(ProcessInfo.processInfo.activeProcessorCount) CPUs)")
        figure("accounts", Double(options.accounts))
        if reused { print("database: reused from \(databasePath)") } else { figure("database-setup-ms", setup * 1000) }
        figure("runs", Double(options.runs))
        figure("first-frame-ms", first.ours * 1000, decimals: 2)
        figure("first-frame-baseline-ms", first.baseline * 1000, decimals: 2)
        figure("baseline-exit-ms", first.baselineExit * 1000, decimals: 2)
        figure("switchboard-version-exit-ms", first.versionExit * 1000, decimals: 2)
        figure("c-baseline-exit-ms", first.cExit * 1000, decimals: 2)
        figure("version-ratio", first.versionExit / first.cExit, decimals: 2)
        figure("switchboard-status-exit-ms", first.statusExit * 1000, decimals: 2)
        figure("status-ratio", statusRatio, decimals: 2)
        figure("first-frame-ratio", firstRatio, decimals: 2)
        figure("bytes-ours", Double(bytes.ours))
        figure("bytes-ncurses", Double(bytes.anchor))
        print("full-clear-after-first-frame: \(bytes.oursCleared ? "yes" : "no")")
        print("full-clear-after-first-frame-ncurses: \(bytes.anchorCleared ? "yes" : "no")")
        figure("bytes-ratio", bytesRatio, decimals: 2)
        figure("filter-accounts", Double(options.filterAccounts))
        print("filter-100k-keystrokes-ms: " + filter.steps.map { "\($0.key) \(fixed($0.seconds * 1000, 2))" }.joined(separator: ", "))
        figure("filter-100k-median-ms", filter.median * 1000, decimals: 2)
        figure("filter-100k-cpu-ms", filter.worstCPU * 1000, decimals: 2)
        figure("filter-100k-ms", filter.worst * 1000, decimals: 2)
        figure("idle-seconds", idle.seconds, decimals: 1)
        figure("idle-threads", Double(idle.threads))
        // Idle dispatch workers retire after a few seconds; their last wake-up, to exit, falls between looks.
        figure("idle-threads-ended", Double(idle.ended))
        figure("idle-context-switches", Double(idle.switches))
        figure("idle-output-bytes", Double(idle.outputBytes))
        print("idle-wakeups-by-thread: \(idle.byThread)")
        figure("idle-wakeups-per-s", idle.perSecond, decimals: 2)
    }

    // MARK: The programs

    /// The executables built beside this one.
    struct Tools {
        let switchboard: String
        let baseline: String
        let frames: String
        let c: String
        /// `release` or `debug`, from the folder this bench runs from.
        let configuration: String
        /// Whether `switchboard` carries the Swift standard library (`--static-swift-stdlib`).
        let staticStdlib: Bool

        init() throws {
            guard let folder = RunningProcess.executableFolder else { throw BenchError("cannot find /proc/self/exe") }
            switchboard = folder + "/switchboard"
            baseline = folder + "/curses-baseline"
            frames = folder + "/curses-frames"
            c = folder + "/c-baseline"
            configuration = folder.hasSuffix("/debug") ? "debug" : folder.hasSuffix("/release") ? "release" : folder
            for tool in [switchboard, baseline, frames, c] where access(tool, X_OK) != 0 {
                throw BenchError("\(tool) is missing: run `swift build -c \(configuration)` first")
            }
            // A dynamically linked Swift program asks for libswiftCore.so at exec.
            let image = (try? Data(contentsOf: URL(fileURLWithPath: switchboard))) ?? Data()
            staticStdlib = image.range(of: Data("libswiftCore.so".utf8)) == nil
        }
    }

    /// A database of `accounts` accounts, every third with a second identity,
    /// the last one active in session "bench".
    static func makeDatabase(path: String, accounts: Int) throws {
        let database = try AppDatabase(path: path)
        let session = SessionKey("bench")!
        for index in 0..<accounts {
            let account = Synthetic.account(index)
            _ = try database.signIn(account.identities[0], mode: .signIn, session: session)
            for identity in account.identities.dropFirst() {
                _ = try database.signIn(identity, mode: .link, session: session)
            }
        }
    }

    // MARK: first-frame-ratio

    /// Medians of exec-to-first-frame, ours and the baseline's, and of
    /// exec-to-exit of the baseline, `switchboard status`, `switchboard
    /// --version` and `c-baseline`, run alternately after one discarded warm-up.
    static func firstFrame(_ tools: Tools, environment: [String: String], runs: Int) throws
        -> (ours: Double, baseline: Double, baselineExit: Double, versionExit: Double, statusExit: Double, cExit: Double)
    {
        var ours: [Double] = [], baseline: [Double] = [], exits: [Double] = [], versions: [Double] = [], statuses: [Double] = []
        var cExits: [Double] = []
        /// Exec to exit of `program ARGUMENTS` (`switchboard` unless named), which must succeed.
        func exitTime(_ arguments: [String], of program: String = tools.switchboard) throws -> Double {
            let process = try TerminalProcess(program, arguments: arguments, environment: environment, columns: columns, rows: rows)
            let status = process.finish(timeout: 10)
            guard status == 0 else {
                throw BenchError("\(program) \(arguments.joined(separator: " ")) exited with status \(status):\n\(String(decoding: process.output, as: UTF8.self))")
            }
            return (process.hungUp ?? now()) - process.started
        }
        for run in -1..<runs {
            let base = try TerminalProcess(tools.baseline, environment: environment, columns: columns, rows: rows)
            guard let shown = base.wait(for: clearScreen, timeout: 10) else {
                throw BenchError("curses-baseline drew nothing in 10 s")
            }
            let status = base.finish(timeout: 10)
            guard status == 0 else { throw BenchError("curses-baseline exited with status \(status)") }
            let exited = base.hungUp ?? now()  // the terminal hangs up when the program's last descriptor closes

            let chooser = try TerminalProcess(tools.switchboard, environment: environment, columns: columns, rows: rows)
            guard let drawn = chooser.wait(for: quitLabel, timeout: 20) else {
                throw BenchError("switchboard drew no key bar in 20 s:\n\(String(decoding: chooser.output, as: UTF8.self))")
            }
            chooser.send(Array("q".utf8))
            let chooserStatus = chooser.finish(timeout: 10)
            guard chooserStatus == 0 else { throw BenchError("switchboard exited with status \(chooserStatus)") }

            let statusTime = try exitTime(["status"])
            let cTime = try exitTime([], of: tools.c)
            let version = try exitTime(["--version"])
            if run >= 0 {
                baseline.append(shown - base.started)
                exits.append(exited - base.started)
                ours.append(drawn - chooser.started)
                statuses.append(statusTime)
                cExits.append(cTime)
                versions.append(version)
            }
        }
        return (median(ours), median(baseline), median(exits), median(versions), median(statuses), median(cExits))
    }

    // MARK: bytes-ratio

    /// Bytes sent for the second frame (selection one row down), ours and
    /// ncurses' (median of three runs each), and whether either cleared.
    static func bytesForOneRow(_ tools: Tools, environment: [String: String], dump: Bool) throws
        -> (ours: Int, anchor: Int, oursCleared: Bool, anchorCleared: Bool)
    {
        func secondFrame(_ executable: String) throws -> [UInt8] {
            let process = try TerminalProcess(executable, environment: environment, columns: columns, rows: rows)
            guard process.wait(for: quitLabel, timeout: 20) != nil else {
                throw BenchError("\(executable) drew no key bar in 20 s")
            }
            _ = process.drain(quiet: 0.3, limit: 5)
            process.send(Array("j".utf8))
            let bytes = process.drain(quiet: 0.3, limit: 5)
            process.send(Array("q".utf8))
            process.finish(timeout: 10)
            return bytes
        }
        var ours: [[UInt8]] = [], anchor: [[UInt8]] = []
        for _ in 0..<3 {
            ours.append(try secondFrame(tools.switchboard))
            anchor.append(try secondFrame(tools.frames))
        }
        if dump {
            print("ours:   " + escaped(ours[0]))
            print("ncurses: " + escaped(anchor[0]))
        }
        let cleared = { (runs: [[UInt8]]) in runs.contains { bytes in clears.contains { TerminalProcess.find($0, in: bytes, from: 0) != nil } } }
        return (Int(median(ours.map { Double($0.count) })), Int(median(anchor.map { Double($0.count) })), cleared(ours), cleared(anchor))
    }

    /// Bytes as text, escapes shown as `\e`.
    static func escaped(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).unicodeScalars.map { scalar in
            scalar == "\u{1B}" ? "\\e" : scalar.value < 0x20 ? String(format: "\\x%02x", scalar.value) : String(scalar)
        }.joined()
    }

    // MARK: idle-wakeups-per-s

    /// Context switches of every thread of the chooser over `seconds` of
    /// idleness, after its first frame and a second to settle. Threads are
    /// looked at every 0.1 s (reading /proc wakes nobody), so one that ends
    /// meanwhile — an idle dispatch worker retiring — still counts, all
    /// but its very last wake-up (to exit).
    static func idleWakeups(_ tools: Tools, environment: [String: String], seconds: Double) throws
        -> (perSecond: Double, switches: Int, threads: Int, ended: Int, seconds: Double, outputBytes: Int, byThread: String)
    {
        let chooser = try TerminalProcess(tools.switchboard, environment: environment, columns: columns, rows: rows)
        guard chooser.wait(for: quitLabel, timeout: 20) != nil else {
            throw BenchError("switchboard drew no key bar in 20 s")
        }
        return idleWakeups(of: chooser, seconds: seconds)
    }

    /// As above, for a program already drawn on its terminal (the chooser, the
    /// operator's board); it is asked to quit with `q` afterwards.
    static func idleWakeups(of chooser: TerminalProcess, seconds: Double)
        -> (perSecond: Double, switches: Int, threads: Int, ended: Int, seconds: Double, outputBytes: Int, byThread: String)
    {
        _ = chooser.drain(quiet: 1, limit: 5)
        let before = chooser.threads()
        var last = before
        let outputBefore = chooser.output.count
        let start = now()
        while now() - start < seconds {
            chooser.pump(timeout: min(0.1, seconds - (now() - start)))
            last.merge(chooser.threads()) { $1 }
        }
        let elapsed = now() - start
        let idleOutput = chooser.output.count - outputBefore
        let alive = chooser.threads().count
        chooser.send(Array("q".utf8))
        chooser.finish(timeout: 10)
        // Threads that started meanwhile count from zero.
        let woken = last.sorted { $0.key < $1.key }.map { tid, thread in
            (tid: tid, thread: thread, switches: thread.switches - (before[tid]?.switches ?? 0))
        }
        let switches = woken.reduce(0) { $0 + $1.switches }
        let byThread = woken.map { "\($0.tid) \($0.thread.name) [\($0.thread.waitChannel)] \($0.switches)" }.joined(separator: ", ")
        return (Double(switches) / elapsed, switches, alive, last.count - alive, elapsed, idleOutput, byThread)
    }

    /// CPU seconds this thread has used.
    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The 1-minute load average: a busy machine stretches every time here.
    static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").first.map(String.init) ?? "?"
    }
}

/// Deterministic made-up accounts: varied names, emails, providers and states.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
