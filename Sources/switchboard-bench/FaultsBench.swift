import Foundation
import PostgresServer
import ProcessKit
import Store
import SwitchboardCore

/// `faults`: a station's chooser, the built program in a terminal of its
/// own, whose PostgreSQL server stops answering while keeping its
/// connections (a `FaultProxy` between them holds every byte, as a paused
/// server does), then answers again.
///
/// 1. The server goes silent and Enter asks for a switch; `?` (help, which
///    needs nothing of the store) is pressed and closed again and again,
///    before and after the station says it is offline: the time from each
///    key to the frame that shows it (goal ≤ 100 ms; ≤ 16 ms, a frame at
///    60 Hz, once offline: a key pressed within 50 ms of a call's start
///    may wait that long for its answer, `StoreLink.frameHold`).
/// 2. The time from the switch's key to "Station offline" on the screen
///    (goal: the deadline, `[store] timeout` = 2 s, plus at most 3 s).
/// 3. The server answers again; Enter is pressed every 100 ms: the time
///    until the switch is on the screen (goal ≤ 2 s).
enum FaultsBench {
    static let columns = 100, rows = 30
    static let offline = Array("Station offline".utf8)
    static let help = Array("Keys".utf8)

    static func run(_ arguments: [String]) throws {
        var keys = 20
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            switch name {
            case "--keys": keys = iterator.next().flatMap(Int.init).map { max(4, $0) } ?? keys
            default: throw BenchError("faults: unexpected \(name)")
            }
        }
        let tools = try TUIBench.Tools()
        print("starting a PostgreSQL server…")
        let cluster = try ThrowawayCluster.start()
        defer { cluster.stop() }
        try cluster.createDatabase("fleet")
        let direct = cluster.url(database: "fleet")
        let proxy = try FaultProxy(to: cluster.port)
        defer { proxy.stop() }
        let url = direct.replacingOccurrences(of: ":\(cluster.port)/", with: ":\(proxy.port)/")
        let database = try AppDatabase(url: direct)
        let setup = SessionKey("setup")!
        let people = (0..<2).map { Synthetic.account($0) }
        for person in people { _ = try database.signIn(person.identities[0], mode: .signIn, session: setup) }
        _ = try database.signOut(session: setup)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-bench-faults-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder + "/config/switchboard", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "[store]\nurl = \"\(url)\"\nstation = \"bench-1\"\ntimeout = 2\n"
            .write(toFile: folder + "/config/switchboard/config.toml", atomically: true, encoding: .utf8)
        let environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", "TERM": "xterm-256color",
            "XDG_CONFIG_HOME": folder + "/config", "XDG_DATA_HOME": folder + "/data",
        ]
        let chooser = try TerminalProcess(tools.switchboard, environment: environment, columns: columns, rows: rows)
        defer {
            chooser.send(Array("q".utf8))
            _ = chooser.finish(timeout: 10)
        }
        guard chooser.wait(for: TUIBench.quitLabel, timeout: 20) != nil else {
            throw BenchError("faults: the chooser drew no key bar in 20 s:\n\(String(decoding: chooser.output, as: UTF8.self))")
        }
        _ = chooser.drain(quiet: 0.3, limit: 5)

        // 1 and 2: silence, a switch, help opened and closed.
        proxy.set(.hold)
        chooser.send([13])
        let switched = now()
        var before: [Double] = [], after: [Double] = []
        var offlineAt: Double?
        // Until offline is said (at most 20 s), then as many keys again.
        while offlineAt == nil ? now() - switched < 20 : after.count < keys {
            let seenBefore = offlineAt != nil
            let pressed = now()
            chooser.send(Array("?".utf8))
            guard let shown = chooser.wait(for: help, timeout: 10) else { throw BenchError("faults: help did not show within 10 s") }
            if seenBefore { after.append(shown - pressed) } else { before.append(shown - pressed) }
            chooser.send(Array("?".utf8))
            _ = chooser.drain(quiet: 0.05, limit: 1)
            if offlineAt == nil, TerminalProcess.find(offline, in: chooser.output, from: 0) != nil { offlineAt = now() }
        }
        if offlineAt == nil {
            guard let seen = chooser.wait(for: offline, timeout: 20) else { throw BenchError("faults: the station never said offline") }
            offlineAt = seen
        }

        // 3: the server answers; Enter until the switch shows.
        _ = chooser.drain(quiet: 0.2, limit: 2)
        let seenFrom = chooser.output.count
        proxy.set(.pass)
        let answered = now()
        var live: Double?
        let markers = people.map { Array("● \($0.name)".utf8) }
        while live == nil, now() - answered < 20 {
            chooser.send([13])
            _ = chooser.pump(timeout: 0.1)
            if markers.contains(where: { TerminalProcess.find($0, in: chooser.output, from: seenFrom) != nil }) { live = now() }
        }
        guard let live, let offlineAt else { throw BenchError("faults: the switch never showed after the server answered") }

        let keystrokes = before + after
        let worst = keystrokes.max() ?? 0
        let table: [[String]] = [
            ["figure", "value", "goal", ""],
            ["key to frame while silent, p50 ms (\(keystrokes.count) keys)", fixed(percentile(keystrokes, 0.5) * 1000, 1), "—", ""],
            ["key to frame while silent, worst ms", fixed(worst * 1000, 1), "≤ 100", verdict(worst <= 0.1)],
            ["  before offline was said (\(before.count) keys), worst ms", fixed((before.max() ?? 0) * 1000, 1), "—", ""],
            ["  after (\(after.count) keys), worst ms", fixed((after.max() ?? 0) * 1000, 1), "≤ 16", verdict((after.max() ?? 0) <= 0.016)],
            ["switch's key to \"Station offline\", s", fixed(offlineAt - switched, 2), "≤ 2 + 3", verdict(offlineAt - switched <= 5)],
            ["server answers to the switch on screen, s", fixed(live - answered, 2), "≤ 2", verdict(live - answered <= 2)],
        ]
        printTable(table)
        print("\nbuild: \(tools.configuration)")
        print("load-average-1m: \(TUIBench.loadAverage()) (2 CPUs)")
    }
}
