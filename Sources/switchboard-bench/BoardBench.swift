import BoardUI
import Foundation
import PostgresServer
import ProcessKit
import Store
import SwitchboardCore

/// `fleet --board`: the operator's board over a fleet of `--board-stations`
/// stations on a PostgreSQL server of its own, measured as the operator
/// waits: `switchboard fleet` on a pseudo-terminal, another connection
/// signing a station in and out, and the time from each write's commit to
/// the board's frame showing it on the terminal; then the board's wake-ups
/// over `--idle` seconds of nobody doing anything (its clock ticks once a
/// second for the idle times: the floor).
enum BoardBench {
    static let goalFrameMS = 16.0
    /// One tick a second, and the threads it wakes on its way (dispatch's
    /// timer thread, then the one that drains the main queue): a handful of
    /// thread wake-ups a second, all for the one tick.
    static let idleFloor = 5.0
    /// The names shown: each differs from the other and from "Anonymous" at
    /// every column, so a frame that shows one writes all of it.
    static let names = ["Zed Bench-Person", "Quill Bench"]

    static func run(stations: Int, changes: Int, idleSeconds: Double, sslmode: String) throws {
        guard let folder = RunningProcess.executableFolder else { throw BenchError("cannot find /proc/self/exe") }
        let switchboard = folder + "/switchboard"
        guard access(switchboard, X_OK) == 0 else { throw BenchError("\(switchboard) is missing: build the switchboard product first") }
        let configuration = folder.hasSuffix("/release") ? "release" : folder.hasSuffix("/debug") ? "debug" : folder
        print("starting a PostgreSQL server with \(stations) stations for the board…")
        let cluster = try ThrowawayCluster.start()
        defer { cluster.stop() }
        try cluster.createDatabase("board")
        let url = cluster.url(database: "board", extra: "sslmode=\(sslmode)")
        let database = try AppDatabase(url: url)
        let start = Date()
        // The stations: reported as a kiosk does (a long heartbeat: none turns offline while this runs).
        for index in 0..<stations {
            let name = String(format: "station-%03d", index)
            _ = try database.stationStarted(Store.StationReport(
                station: name, terminal: "tty1", session: name + "/tty1", version: "bench", startedAt: start, heartbeatAt: start,
                heartbeatSeconds: 3600), instance: "bench")
        }
        let setup = SessionKey("bench-setup")!
        var accounts: [AccountID] = []
        for (index, name) in names.enumerated() {
            var identity = Synthetic.account(index + 1).identities[0]
            identity.displayName = name
            guard case .completed(let account, _, _, _, _) = try database.signIn(identity, mode: .signIn, session: setup) else {
                throw BenchError("board: could not seed \(name)")
            }
            accounts.append(account.id)
        }
        _ = try database.signOut(session: setup)

        let home = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-board-\(getpid())").path
        try FileManager.default.createDirectory(atPath: home + "/config/switchboard", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try "".write(toFile: home + "/config/switchboard/config.toml", atomically: true, encoding: .utf8)
        let environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TERM": "xterm-256color", "TZ": "UTC",
            "SWITCHBOARD_STORE": url, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
        ]
        let board = try TerminalProcess(switchboard, arguments: ["fleet"], environment: environment, columns: 120, rows: 40)
        guard board.wait(for: Array("station-000".utf8), timeout: 30) != nil, board.wait(for: TUIBench.quitLabel, timeout: 30) != nil else {
            throw BenchError("the board drew no stations in 30 s:\n\(String(decoding: board.output, as: UTF8.self))")
        }
        _ = board.drain(quiet: 0.5, limit: 5)

        // Sign-ins and sign-outs at the stations on the board's first page, one at a time.
        var commitToFrame: [Double] = [], writeToFrame: [Double] = []
        for round in 0..<changes {
            let station = String(format: "station-%03d", 1 + round / 2 % 10)
            let session = SessionKey(stored: station + "/tty1")
            let signIn = round % 2 == 0
            let marker = Array((signIn ? names[round / 2 % names.count] : "Anonymous").utf8)
            _ = board.drain(quiet: 0.15, limit: 2)
            let began = now()
            if signIn {
                _ = try database.switchAccount(to: accounts[round / 2 % names.count], session: session)
            } else {
                _ = try database.signOut(session: session)
            }
            let committed = now()
            guard let shown = board.wait(for: marker, timeout: 10) else {
                throw BenchError("the board did not show change \(round) in 10 s")
            }
            commitToFrame.append((shown - committed) * 1000)
            writeToFrame.append((shown - began) * 1000)
        }
        let idle = TUIBench.idleWakeups(of: board, seconds: idleSeconds)
        board.send(Array("q".utf8))
        let status = board.finish(timeout: 10)

        commitToFrame.sort()
        writeToFrame.sort()
        let p50 = PropagationBench.percentile(commitToFrame, 0.5), p99 = PropagationBench.percentile(commitToFrame, 0.99)
        print("")
        printTable([
            ["the operator's board", "value", "goal", ""],
            ["stations", "\(stations)", "", ""],
            ["changes (sign-ins and sign-outs at other stations)", "\(changes)", "", ""],
            ["commit to the board's frame on the terminal, p50 (ms)", fixed(p50, 2), "", ""],
            ["commit to the board's frame, p99 (ms)", fixed(p99, 2), "< \(fixed(goalFrameMS, 0))", verdict(p99 < goalFrameMS)],
            ["start of the write to the frame, p50 (ms)", fixed(PropagationBench.percentile(writeToFrame, 0.5), 2), "", ""],
            ["start of the write to the frame, p99 (ms)", fixed(PropagationBench.percentile(writeToFrame, 0.99), 2), "", ""],
            ["idle thread wake-ups per s (\(fixed(idle.seconds, 0)) s, \(idle.threads) threads)", fixed(idle.perSecond, 1), "≤ \(fixed(idleFloor, 0)) (one tick a second)",
             verdict(idle.perSecond <= idleFloor)],
            ["bytes drawn while idle", "\(idle.outputBytes)", "", ""],
            ["board's exit status after q", "\(status)", "0", verdict(status == 0)],
        ])
        print("")
        print("build: \(configuration); load-average-1m: \(TUIBench.loadAverage()) (\(ProcessInfo.processInfo.activeProcessorCount) CPUs)")
        print("idle wake-ups by thread: \(idle.byThread)")
        figure("board-stations", Double(stations))
        figure("board-commit-to-frame-p50-ms", p50, decimals: 2)
        figure("board-commit-to-frame-p99-ms", p99, decimals: 2)
        figure("board-commit-to-frame-max-ms", commitToFrame.last ?? .nan, decimals: 2)
        figure("board-idle-wakeups-per-s", idle.perSecond, decimals: 2)
    }
}
