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
///
/// With `--stations N`, a room instead (`room`): N choosers behind the
/// proxy, left alone, then a black hole.
enum FaultsBench {
    static let columns = 100, rows = 30
    static let offline = Array("Station offline".utf8)
    static let help = Array("Keys".utf8)

    static func run(_ arguments: [String]) throws {
        var keys = 20, stations = 1
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            switch name {
            case "--keys": keys = iterator.next().flatMap(Int.init).map { max(4, $0) } ?? keys
            case "--stations": stations = iterator.next().flatMap(Int.init).map { min(40, max(1, $0)) } ?? stations
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
        defer { try? FileManager.default.removeItem(atPath: folder) }
        if stations > 1 {
            return try room(stations, tools: tools, url: url, proxy: proxy, database: database, folder: folder)
        }
        let chooser = try station(1, tools: tools, url: url, folder: folder)
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

    /// Station `number`'s chooser, in a terminal of its own, its store `url` with a 2-second deadline.
    static func station(_ number: Int, tools: TUIBench.Tools, url: String, folder: String) throws -> TerminalProcess {
        let home = folder + "/bench-\(number)"
        try FileManager.default.createDirectory(atPath: home + "/config/switchboard", withIntermediateDirectories: true)
        try "[store]\nurl = \"\(url)\"\nstation = \"bench-\(number)\"\ntimeout = 2\n"
            .write(toFile: home + "/config/switchboard/config.toml", atomically: true, encoding: .utf8)
        let environment = [
            "PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8", "TERM": "xterm-256color",
            "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
        ]
        return try TerminalProcess(tools.switchboard, environment: environment, columns: columns, rows: rows)
    }

    /// A room of `count` stations, left alone, then a black hole between
    /// them and the server: the time until every one says it is offline
    /// (goal ≤ 3 s: an idle station asks a quiet server for a round trip
    /// every second), a key to frame at one of them meanwhile (≤ 16 ms);
    /// a person signed in directly and a station booted during the
    /// outage; then the server's return to every station showing that
    /// person, the booted one its whole list (≤ 2 s).
    static func room(_ count: Int, tools: TUIBench.Tools, url: String, proxy: FaultProxy, database: AppDatabase, folder: String) throws {
        print("starting \(count) stations…")
        var choosers = try (1...count).map { try station($0, tools: tools, url: url, folder: folder) }
        defer {
            for chooser in choosers {
                chooser.send(Array("q".utf8))
                _ = chooser.finish(timeout: 10)
            }
        }
        for chooser in choosers {
            guard chooser.wait(for: TUIBench.quitLabel, timeout: 30) != nil else { throw BenchError("faults: a station drew no key bar in 30 s") }
        }
        for chooser in choosers { _ = chooser.drain(quiet: 0.3, limit: 5) }
        // Every station saw nothing for a while: each is idle, its watch quiet.
        Thread.sleep(forTimeInterval: 2)
        for chooser in choosers { _ = chooser.drain(quiet: 0.05, limit: 1) }

        // 1. The black hole.
        var marks = choosers.map(\.output.count)
        proxy.set(.hold)
        let cut = now()
        var offlineAt = [Double?](repeating: nil, count: count), keys: [Double] = []
        while offlineAt.contains(where: { $0 == nil }), now() - cut < 30 {
            let pressed = now()
            choosers[0].send(Array("?".utf8))
            if let shown = choosers[0].wait(for: help, timeout: 5) { keys.append(shown - pressed) }
            choosers[0].send(Array("?".utf8))
            for (index, chooser) in choosers.enumerated() where offlineAt[index] == nil {
                _ = chooser.pump(timeout: 0.005)
                if TerminalProcess.find(offline, in: chooser.output, from: marks[index]) != nil { offlineAt[index] = now() - cut }
            }
        }
        let allOffline = offlineAt.map { $0 ?? .infinity }.max() ?? .infinity

        // 2. During the outage: someone signs in elsewhere (straight to the server), and a station boots.
        let newcomer = Synthetic.account(2)
        _ = try database.signIn(newcomer.identities[0], mode: .signIn, session: SessionKey("elsewhere")!)
        let bootedAt = now()
        let booted = try station(count + 1, tools: tools, url: url, folder: folder)
        choosers.append(booted)
        guard let bootOffline = booted.wait(for: offline, timeout: 30) else { throw BenchError("faults: the station booted in the outage never said offline") }
        for chooser in choosers { _ = chooser.drain(quiet: 0.05, limit: 1) }

        // 3. The server's return: every station shows the newcomer.
        marks = choosers.map(\.output.count)
        proxy.set(.pass)
        let back = now()
        let name = Array(newcomer.name.utf8)
        var shownAt = [Double?](repeating: nil, count: choosers.count)
        while shownAt.contains(where: { $0 == nil }), now() - back < 30 {
            for (index, chooser) in choosers.enumerated() where shownAt[index] == nil {
                _ = chooser.pump(timeout: 0.005)
                if TerminalProcess.find(name, in: chooser.output, from: marks[index]) != nil { shownAt[index] = now() - back }
            }
        }
        let caughtUp = shownAt.dropLast().map { $0 ?? .infinity }.max() ?? .infinity
        let bootedUp = shownAt.last.flatMap { $0 } ?? .infinity
        let p99 = percentile(keys, 0.99) * 1000
        printTable([
            ["figure", "value", "goal", ""],
            ["stations", "\(count)", "", ""],
            ["black hole to \"Station offline\" on every station, s", fixed(allOffline, 2), "≤ 3", verdict(allOffline <= 3)],
            ["key to frame at one station meanwhile, p99 ms (\(keys.count) keys)", fixed(p99, 1), "≤ 16", verdict(p99 <= 16)],
            ["a station booted in the outage to \"Station offline\", s", fixed(bootOffline - bootedAt, 2), "", ""],
            ["the server's return to every station showing what changed, s", fixed(caughtUp, 2), "≤ 2", verdict(caughtUp <= 2)],
            ["the server's return to the booted station's whole list, s", fixed(bootedUp, 2), "≤ 2", verdict(bootedUp <= 2)],
        ])
        print("\nbuild: \(tools.configuration)")
        print("load-average-1m: \(TUIBench.loadAverage()) (2 CPUs)")
    }
}
