import Foundation
import ProcessKit

/// `roster`: big rosters and long histories, measured as a person or a
/// script meets them, each figure printed against its goal.
///
/// For stores of 1,000, 10,000 and 100,000 accounts (`RosterStore`):
/// - the chooser's first frame (exec to the key bar's last label on a
///   100×30 pseudo-terminal, as `tui` times it) and its resident memory
///   then (`VmRSS`), medians of `--runs`;
/// - keystroke to finished frame: on a chooser that has settled (its index
///   built), the time from a key typed at the terminal to the last byte of
///   the frame it brings (nothing more for 40 ms after it), over `--rounds`
///   of typing a query into the filter and erasing it again; p50 and p99;
/// - `switch NAME`, `status` and `accounts --json` as whole processes: exec
///   to exit and peak resident memory (`ru_maxrss`), medians of `--runs`.
///
/// Then another program appends `--events` switch events round
/// `--stations` sessions in one transaction, while one `status --watch
/// --all` and one chooser (100,000 accounts) follow the store: each one's
/// CPU time and peak memory from the commit until it has caught up (the
/// watcher has printed every station's final state, checked; the chooser
/// is idle, and after a repaint shows its session's final person).
///
/// Goals are judged at 100,000 accounts. Measure the build people
/// install: `swift build -c release --product switchboard-bench`, then run
/// `switchboard-bench roster` from that folder.
enum RosterBench {
    struct Options {
        var sizes = [1000, 10_000, 100_000]
        var runs = 7
        var rounds = 5
        var events = 1_000_000
        var stations = 1000
        var query = "ada lo"
        /// A folder to keep the stores in, made once and reused.
        var workspace: String?
    }

    struct Figures {
        var firstFrame = 0.0, firstFrameRSS = 0, settledRSS = 0
        var keystrokes: [Double] = []
        var switchRun = ProcessRun(seconds: 0, peakBytes: 0, status: 0)
        var statusRun = ProcessRun(seconds: 0, peakBytes: 0, status: 0)
        var jsonRun = ProcessRun(seconds: 0, peakBytes: 0, status: 0)
        var jsonBytes = 0, setup = 0.0
    }

    static func run(_ arguments: [String]) throws {
        var options = Options()
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            switch name {
            case "--sizes": options.sizes = iterator.next().map { $0.split(separator: ",").compactMap { Int($0) } } ?? options.sizes
            case "--runs": options.runs = iterator.next().flatMap(Int.init) ?? options.runs
            case "--rounds": options.rounds = iterator.next().flatMap(Int.init) ?? options.rounds
            case "--events": options.events = iterator.next().flatMap(Int.init) ?? options.events
            case "--stations": options.stations = iterator.next().flatMap(Int.init) ?? options.stations
            case "--workspace": options.workspace = iterator.next()
            default:
                FileHandle.standardError.write(Data("roster: unexpected \(name)\n".utf8))
                exit(64)
            }
        }
        guard !options.sizes.isEmpty, options.sizes.allSatisfy({ $0 > 0 }), options.stations > 0, options.events >= options.stations else {
            throw BenchError("--sizes, --stations and --events must be positive, with at least an event per station")
        }
        let tools = try TUIBench.Tools()
        let loadBefore = TUIBench.loadAverage()
        let folder = options.workspace ?? FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-roster-\(getpid())").path
        defer { if options.workspace == nil { try? FileManager.default.removeItem(atPath: folder) } }

        var figures: [Int: Figures] = [:]
        for size in options.sizes {
            let store = try Store(folder: folder + "/accounts-\(size)", accounts: size)
            figures[size] = try measure(store, tools: tools, options: options)
        }
        let largest = options.sizes.max()!
        let burstStore = try Store(folder: folder + "/burst-\(getpid())", accounts: largest, fresh: true)
        defer { try? FileManager.default.removeItem(atPath: burstStore.folder) }
        let burst = try measureBurst(burstStore, tools: tools, options: options)

        // The table.
        let sizes = options.sizes, smallest = sizes.min()!
        let big = figures[largest]!, small = figures[smallest]!
        func row(_ name: String, _ value: (Figures) -> String, goal: String, met: Bool?) -> [String] {
            [name] + sizes.map { value(figures[$0]!) } + [goal, met.map(verdict) ?? ""]
        }
        let ms = { (seconds: Double) in fixed(seconds * 1000, 1) }
        let mb = { (bytes: Int) in fixed(megabytes(bytes), 1) }
        let p99 = { (f: Figures) in percentile(f.keystrokes, 99) }
        let at = largest.formatted()
        let table: [[String]] = [
            ["figure"] + sizes.map { "\($0.formatted()) accounts" } + ["goal (at \(at))", ""],
            row("chooser first frame, ms", { ms($0.firstFrame) }, goal: "≤ 2× at \(smallest.formatted()) (\(ms(2 * small.firstFrame)))",
                met: big.firstFrame <= 2 * small.firstFrame),
            row("chooser RSS at first frame, MB", { mb($0.firstFrameRSS) }, goal: "≤ 64", met: megabytes(big.firstFrameRSS) <= 64),
            row("keystroke to frame p50, ms", { ms(percentile($0.keystrokes, 50)) }, goal: "—", met: nil),
            row("keystroke to frame p99, ms", { ms(p99($0)) }, goal: "≤ 16", met: p99(big) <= 0.016),
            row("switch NAME, ms (whole process)", { ms($0.switchRun.seconds) }, goal: "≤ 2× status (\(ms(2 * big.statusRun.seconds)))",
                met: big.switchRun.seconds <= 2 * big.statusRun.seconds),
            row("status, ms (whole process)", { ms($0.statusRun.seconds) }, goal: "—", met: nil),
            row("accounts --json, ms (whole process)", { ms($0.jsonRun.seconds) }, goal: "≤ 500", met: big.jsonRun.seconds <= 0.5),
            row("accounts --json, peak MB", { mb($0.jsonRun.peakBytes) }, goal: "≤ 48", met: megabytes(big.jsonRun.peakBytes) <= 48),
        ]
        printTable(table)
        print("")
        let events = options.events.formatted()
        printTable([
            ["\(events)-event backlog (\(largest.formatted()) accounts, \(options.stations.formatted()) sessions)", "CPU s", "peak MB", "goal", ""],
            ["status --watch --all", fixed(burst.watcherCPU, 2), mb(burst.watcherPeak), "≤ 2 s, ≤ 64 MB",
             verdict(burst.watcherCPU <= 2 && megabytes(burst.watcherPeak) <= 64 && burst.watcherCorrect)],
            ["chooser", fixed(burst.chooserCPU, 2), mb(burst.chooserPeak), "≤ 2 s, ≤ 64 MB",
             verdict(burst.chooserCPU <= 2 && megabytes(burst.chooserPeak) <= 64 && burst.chooserCorrect)],
        ])
        print("")
        print("build: \(tools.configuration), Swift standard library \(tools.staticStdlib ? "static" : "dynamic")")
        print("load-average-1m: \(loadBefore) before, \(TUIBench.loadAverage()) after (\(ProcessInfo.processInfo.activeProcessorCount) CPUs)")
        figure("runs", Double(options.runs))
        figure("keystroke-rounds", Double(options.rounds))
        print("query: “\(options.query)” typed, then erased")
        for size in sizes {
            let f = figures[size]!
            print("accounts-\(size): setup-s \(fixed(f.setup, 2)), settled-rss-mb \(mb(f.settledRSS)), "
                + "switch-peak-mb \(mb(f.switchRun.peakBytes)), status-peak-mb \(mb(f.statusRun.peakBytes)), "
                + "accounts-json-bytes \(f.jsonBytes), keystrokes \(f.keystrokes.count), keystroke-max-ms \(ms(f.keystrokes.max() ?? .nan))")
        }
        print("burst: insert-s \(fixed(burst.insert, 2)), watcher-lines \(burst.watcherLines) (a station's each), "
            + "watcher-final-states \(burst.watcherCorrect ? "right" : "WRONG"), watcher-wall-s \(fixed(burst.watcherWall, 2)), "
            + "chooser-final-person \(burst.chooserCorrect ? "shown" : "NOT SHOWN"), chooser-wall-s \(fixed(burst.chooserWall, 2))")
    }

    /// A store of `accounts` accounts in `folder`, with its environment.
    struct Store {
        let folder: String
        let path: String
        let accounts: Int
        let environment: [String: String]
        /// Seconds it took to make (0 when reused).
        let setup: Double

        init(folder: String, accounts: Int, fresh: Bool = false) throws {
            self.folder = folder
            self.accounts = accounts
            path = folder + "/data/switchboard.sqlite"
            for sub in ["/config", "/data"] { try FileManager.default.createDirectory(atPath: folder + sub, withIntermediateDirectories: true) }
            if fresh { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let start = now()
            if !FileManager.default.fileExists(atPath: path) { try RosterStore.make(path: path, accounts: accounts) }
            setup = now() - start
            environment = [
                "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", "TERM": "xterm-256color",
                "SWITCHBOARD_DATABASE": path, "SWITCHBOARD_SESSION": RosterStore.session,
                "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data",
            ]
        }
    }

    // MARK: Per roster size

    static func measure(_ store: Store, tools: TUIBench.Tools, options: Options) throws -> Figures {
        var figures = Figures()
        figures.setup = store.setup
        let columns = TUIBench.columns, rows = TUIBench.rows
        // First frames, after one discarded warm-up.
        var frames: [Double] = [], resident: [Int] = []
        for run in -1..<options.runs {
            let chooser = try TerminalProcess(tools.switchboard, environment: store.environment, columns: columns, rows: rows)
            guard let drawn = chooser.wait(for: TUIBench.quitLabel, timeout: 30) else {
                throw BenchError("switchboard drew no key bar in 30 s:\n\(String(decoding: chooser.output, as: UTF8.self))")
            }
            let rss = ProcStatus.memory(chooser.pid).resident
            chooser.send(Array("q".utf8))
            guard chooser.finish(timeout: 20) == 0 else { throw BenchError("the chooser did not quit with q") }
            if run >= 0 {
                frames.append(drawn - chooser.started)
                resident.append(rss)
            }
        }
        figures.firstFrame = median(frames)
        figures.firstFrameRSS = Int(median(resident.map(Double.init)))

        // Keystrokes, on a chooser that has built its index.
        let chooser = try TerminalProcess(tools.switchboard, environment: store.environment, columns: columns, rows: rows)
        guard chooser.wait(for: TUIBench.quitLabel, timeout: 30) != nil else { throw BenchError("switchboard drew no key bar in 30 s") }
        ProcStatus.waitUntilIdle(chooser.pid, quiet: 0.5, limit: 60, pumping: chooser)
        figures.settledRSS = ProcStatus.memory(chooser.pid).resident
        for _ in 0..<options.rounds {
            guard keystrokeToFrame(chooser, Array("/".utf8), quiet: 0.04) != nil else { throw BenchError("no frame after /") }
            for c in options.query {
                guard let time = keystrokeToFrame(chooser, Array(String(c).utf8), quiet: 0.04) else { throw BenchError("no frame after \(c)") }
                figures.keystrokes.append(time)
            }
            for _ in options.query {
                guard let time = keystrokeToFrame(chooser, [0x7F], quiet: 0.04) else { throw BenchError("no frame after a backspace") }
                figures.keystrokes.append(time)
            }
            _ = keystrokeToFrame(chooser, [0x1B], quiet: 0.1)
        }
        chooser.send(Array("q".utf8))
        guard chooser.finish(timeout: 20) == 0 else { throw BenchError("the chooser did not quit with q") }

        // Whole commands.
        let output = store.folder + "/accounts.json"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let target = RosterStore.name(store.accounts / 2)
        let probe = (tools.switchboard as NSString).deletingLastPathComponent + "/peak-probe"
        var switches: [ProcessRun] = [], statuses: [ProcessRun] = [], lists: [ProcessRun] = []
        for run in -1..<options.runs {
            let switched = try runWhole(tools.switchboard, ["switch", target], environment: store.environment, probe: probe)
            let status = try runWhole(tools.switchboard, ["status"], environment: store.environment, probe: probe)
            let listed = try runWhole(tools.switchboard, ["accounts", "--json"], environment: store.environment, probe: probe, output: output)
            for (name, result) in [("switch", switched), ("status", status), ("accounts --json", listed)] where result.status != 0 {
                throw BenchError("switchboard \(name) exited with status \(result.status)")
            }
            if run >= 0 {
                switches.append(switched)
                statuses.append(status)
                lists.append(listed)
            }
        }
        let json = try Data(contentsOf: URL(fileURLWithPath: output))
        guard let listed = try JSONSerialization.jsonObject(with: json) as? [[String: Any]], listed.count == store.accounts else {
            throw BenchError("accounts --json did not list \(store.accounts) accounts")
        }
        figures.jsonBytes = json.count
        func typical(_ runs: [ProcessRun]) -> ProcessRun {
            ProcessRun(seconds: median(runs.map(\.seconds)), peakBytes: Int(median(runs.map { Double($0.peakBytes) })), status: 0)
        }
        (figures.switchRun, figures.statusRun, figures.jsonRun) = (typical(switches), typical(statuses), typical(lists))
        return figures
    }

    // MARK: The burst

    struct Burst {
        var insert = 0.0
        var watcherCPU = 0.0, watcherPeak = 0, watcherWall = 0.0, watcherLines = 0, watcherCorrect = false
        var chooserCPU = 0.0, chooserPeak = 0, chooserWall = 0.0, chooserCorrect = false
    }

    static func measureBurst(_ store: Store, tools: TUIBench.Tools, options: Options) throws -> Burst {
        var burst = Burst()
        let output = store.folder + "/watch.txt"
        var environment = store.environment
        environment["SWITCHBOARD_SESSION"] = "watcher"
        let fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw BenchError("cannot make \(output)") }
        close(fd)
        let (watcher, _) = try spawnChild(
            tools.switchboard, ["status", "--watch", "--all"], environment: environment,
            descriptors: [.open("/dev/null", O_RDONLY), .open(output, O_WRONLY | O_APPEND), .open("/dev/null", O_WRONLY)])
        defer {
            kill(watcher, SIGKILL)
            reap(watcher)
        }
        let chooser = try TerminalProcess(tools.switchboard, environment: store.environment, columns: TUIBench.columns, rows: TUIBench.rows)
        guard chooser.wait(for: TUIBench.quitLabel, timeout: 30) != nil else { throw BenchError("switchboard drew no key bar in 30 s") }
        func lines() -> [String] {
            ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        let deadline = now() + 30
        while lines().isEmpty, now() < deadline { usleep(20_000) }
        guard lines().count == 1 else { throw BenchError("status --watch --all printed no first line") }
        // Both settled: the chooser's index built, the watcher waiting.
        ProcStatus.waitUntilIdle(chooser.pid, quiet: 0.5, limit: 60, pumping: chooser)
        ProcStatus.waitUntilIdle(watcher, quiet: 0.3, limit: 10)
        ProcStatus.resetPeak(chooser.pid)
        ProcStatus.resetPeak(watcher)
        let watcherBefore = ProcStatus.cpu(watcher), chooserBefore = ProcStatus.cpu(chooser.pid)

        burst.insert = try RosterStore.burst(path: store.path, events: options.events, stations: options.stations, accounts: store.accounts)
        let committed = now()

        // The watcher: a line per station, each its final state.
        // Every station was acting as nobody before, but the chooser's own (as the first account).
        let finals = (0..<options.stations).map { number in
            (number, RosterStore.finalAccount(station: number, stations: options.stations, events: options.events, accounts: store.accounts))
        }.filter { $0.0 != 0 || $0.1 != 1 }
        let expected = Set(finals.map { "(account \($0.1), session \(RosterStore.station($0.0)))" })
        let watchDeadline = now() + 120
        var printed: [String] = []
        while now() < watchDeadline {
            printed = Array(lines().dropFirst())
            if printed.count >= expected.count { break }
            usleep(20_000)
        }
        burst.watcherWall = now() - committed
        ProcStatus.waitUntilIdle(watcher, quiet: 0.3, limit: 10)
        burst.watcherCPU = ProcStatus.cpu(watcher) - watcherBefore
        burst.watcherPeak = ProcStatus.memory(watcher).peak
        burst.watcherLines = printed.count
        burst.watcherCorrect = printed.count == expected.count
            && Set(printed.compactMap { line in line.range(of: "(account ").map { String(line[$0.lowerBound...]) } }) == expected

        // The chooser: idle again, then a repaint shows its session's final person.
        ProcStatus.waitUntilIdle(chooser.pid, quiet: 1, limit: 120, pumping: chooser)
        burst.chooserWall = now() - committed
        burst.chooserCPU = ProcStatus.cpu(chooser.pid) - chooserBefore
        burst.chooserPeak = ProcStatus.memory(chooser.pid).peak
        let person = RosterStore.name(RosterStore.finalAccount(station: 0, stations: options.stations, events: options.events, accounts: store.accounts) - 1)
        _ = chooser.drain(quiet: 0.2, limit: 2)
        chooser.terminal.resize(columns: TUIBench.columns + 1, rows: TUIBench.rows)
        burst.chooserCorrect = chooser.wait(for: Array(person.utf8), timeout: 10) != nil
        chooser.send(Array("q".utf8))
        _ = chooser.finish(timeout: 20)
        return burst
    }
}
