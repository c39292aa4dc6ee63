import Configuration
import Foundation
import Testing

@Suite("Configuration: [store]")
struct StoreSectionTests {
    @Test("url, station and keep_events read into a URL, a name and a duration")
    func values() throws {
        let store = try read("[store]\nurl = \"postgresql://lab@db.example.org/fleet\"\nstation = \"Lab 3 — front desk\"\nkeep_events = \"400d\"\n").store
        #expect(store.url == "postgresql://lab@db.example.org/fleet")
        #expect(store.station == "Lab 3 — front desk")
        #expect(store.keepEvents == .seconds(400 * 24 * 3600))
        #expect(try read("[store]\n").store == StoreSettings(), "every key may be left out")
        #expect(try read("[store]\nurl = \"postgres://127.0.0.1:5433/store\"\n").store.url == "postgres://127.0.0.1:5433/store", "postgres:// too")
        #expect(try read("[store]\n").store.eventsKept == .seconds(400 * 24 * 3600), "events are kept 400 days unless said")
        #expect(try read("[store]\nkeep_events = \"2w\"\n").store.eventsKept == .seconds(14 * 24 * 3600))
        #expect(try read("[store]\n").store.deadline == 2, "the server has 2 s to answer unless said")
        #expect(try read("[store]\ntimeout = 5\n").store.deadline == 5)
    }

    @Test("watch: listening unless said; poll looks every poll_interval seconds, 1 unless said")
    func watching() throws {
        #expect(try read("[store]\n").store.watching == .listen)
        #expect(try read("[store]\nwatch = \"listen\"\n").store.watching == .listen)
        #expect(try read("[store]\nwatch = \"poll\"\n").store.watching == .poll(seconds: 1))
        #expect(try read("[store]\nwatch = \"poll\"\npoll_interval = 0.25\n").store.watching == .poll(seconds: 0.25))
        #expect(try read("[store]\nwatch = \"poll\"\npoll_interval = 5\n").store.watching == .poll(seconds: 5))
    }

    static let kept: [(String, Duration)] = [
        ("1h", .seconds(3600)), ("36h", .seconds(129_600)), ("400d", .seconds(34_560_000)), ("2w", .seconds(1_209_600)),
        ("36500d", .seconds(3_153_600_000)), ("0400d", .seconds(34_560_000)),
    ]

    @Test("keep_events: a whole number of hours, days or weeks", arguments: kept)
    func durations(text: String, expected: Duration) throws {
        #expect(try read("[store]\nkeep_events = \"\(text)\"\n").store.keepEvents == expected)
    }

    @Test("bad values are named by file, line and key", arguments: [
        ("[store]\nurl = \"postgresql://s.test/db\"\nkeep_events = 400\n", "config.toml:3: store.keep_events: expected a string, found an integer"),
        ("[store]\n\n\nkeep_events = \"400\"\n", "config.toml:4: store.keep_events: expected a duration such as \"400d\" (a whole number and h, d or w), found \"400\""),
        ("[store]\nkeep_events = \"d\"\n", "config.toml:2: store.keep_events: expected a duration such as \"400d\""),
        ("[store]\nkeep_events = \"\"\n", "config.toml:2: store.keep_events: expected a duration such as \"400d\""),
        ("[store]\nkeep_events = \"400 d\"\n", "config.toml:2: store.keep_events: expected a duration such as \"400d\""),
        ("[store]\nkeep_events = \"-4d\"\n", "config.toml:2: store.keep_events: expected a duration such as \"400d\""),
        ("[store]\nkeep_events = \"1.5d\"\n", "config.toml:2: store.keep_events: expected a duration such as \"400d\""),
        ("[store]\nkeep_events = \"400s\"\n", "config.toml:2: store.keep_events: expected a duration such as \"400d\""),
        ("[store]\nkeep_events = \"0d\"\n", "config.toml:2: store.keep_events: expected a duration longer than zero, found \"0d\""),
        ("[store]\nkeep_events = \"13m\"\n", "config.toml:2: store.keep_events: months and years vary in length; write days instead, such as \"400d\" (found \"13m\")"),
        ("[store]\nkeep_events = \"1y\"\n", "config.toml:2: store.keep_events: months and years vary in length"),
        ("[store]\nkeep_events = \"36501d\"\n", "config.toml:2: store.keep_events: expected at most 36500d, found \"36501d\""),
        ("[store]\nkeep_events = \"99999999999999999999999w\"\n", "config.toml:2: store.keep_events: expected at most 36500d"),
        ("[store]\nkeep_events = \"4\\u001b[2Jd\"\n", "config.toml:2: store.keep_events: expected a duration such as \"400d\" (a whole number and h, d or w), found \"4d\""),
        ("[store]\nurl = \"db.example.org\"\n", "config.toml:2: store.url: expected a PostgreSQL URL such as postgresql://switchboard@db.example.org/switchboard?sslmode=verify-full"),
        ("[store]\nurl = \"https://switchboard.example.org\"\n", "config.toml:2: store.url: expected a PostgreSQL URL"),
        ("[store]\nurl = \"postgresql://db/x\\u001b[2J\"\n", "config.toml:2: store.url: the URL holds control characters"),
        ("[store]\nurl = \"postgresql://lab:hunter2@db/fleet?colour=blue\"\n", "config.toml:2: store.url: libpq cannot read the URL: invalid URI query parameter"),
        ("[store]\nurl = [\"postgresql://a.test/x\"]\n", "config.toml:2: store.url: expected a string, found an array"),
        ("[store]\nwatch = \"notify\"\n", "config.toml:2: store.watch: expected \"listen\" or \"poll\", found \"notify\""),
        ("[store]\nwatch = true\n", "config.toml:2: store.watch: expected a string, found a boolean"),
        ("[store]\nwatch = \"poll\"\npoll_interval = 0\n", "config.toml:3: store.poll_interval: expected seconds from 0.1 to 60, found 0.0"),
        ("[store]\nwatch = \"poll\"\npoll_interval = 61\n", "config.toml:3: store.poll_interval: expected seconds from 0.1 to 60, found 61.0"),
        ("[store]\npoll_interval = 2\n", "config.toml:2: store.poll_interval: only watch = \"poll\" looks at intervals; set it, or leave poll_interval out"),
        ("[store]\nstation = \"\"\n", "config.toml:2: store.station: expected the station's name, found an empty string"),
        ("[store]\nstation = \"lab\\u001b[2J\"\n", "config.toml:2: store.station: a station's name cannot hold control characters"),
        ("[store]\nstation = \" lab-3\"\n", "config.toml:2: store.station: a station's name cannot start or end with a space"),
        ("[store]\nstation = \"\(String(repeating: "x", count: 65))\"\n", "config.toml:2: store.station: a station's name is at most 64 characters"),
        ("[store]\nstation = 3\n", "config.toml:2: store.station: expected a string, found an integer"),
        ("store = \"https://s.test\"\n", "config.toml:1: store: expected a table, found a string"),
        ("[store]\ntimeout = 0\n", "config.toml:2: store.timeout: expected an integer from 1 to 30, found 0"),
        ("[store]\ntimeout = 31\n", "config.toml:2: store.timeout: expected an integer from 1 to 30, found 31"),
        ("[store]\ntimeout = \"2s\"\n", "config.toml:2: store.timeout: expected an integer, found a string"),
    ])
    func badValues(text: String, expected: String) {
        let error = errorText(text)
        #expect(error.hasPrefix(expected), "\(error)")
    }

    @Test("a password in the URL, its user part or a parameter, is told apart from a URL without one", arguments: [
        ("postgresql://lab:hunter2@db.example.org/fleet", true), ("postgresql://lab@db.example.org/fleet?password=hunter2", true),
        ("postgres://:x@db/fleet", true), ("postgresql://lab@db.example.org/fleet", false),
        ("postgresql://db.example.org/fleet?passfile=/etc/switchboard/pgpass", false), ("postgresql://lab@[::1]:5432/fleet", false),
        ("postgresql://db/fleet?application_name=a:b@c", false),
        ("postgresql://lab@db.example.org/fleet?%70assword=hunter2", true), ("postgresql://lab@db.example.org/fleet?p%61ssword=hunter2", true),
    ])
    func passwords(url: String, carries: Bool) {
        #expect(StoreSettings.carriesPassword(url) == carries)
    }

    @Test("a URL with a password is refused in a file others can read, naming the file, line and key and not the password; allowed at 0600")
    func passwordInReadableFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("switchboard-store-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/config.toml"
        try "[store]\nstation = \"lab-3\"\nurl = \"postgresql://lab:hunter2@db.example.org/fleet\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o644)
        do {
            _ = try SwitchboardConfiguration.load(path: path)
            Issue.record("a readable password was accepted")
        } catch {
            #expect(error.description.hasPrefix("\(path):3: store.url: the URL holds a password and others can read \(path)"), "\(error)")
            #expect(!error.description.contains("hunter2"))
        }
        chmod(path, 0o600)
        #expect(try SwitchboardConfiguration.load(path: path).store.url == "postgresql://lab:hunter2@db.example.org/fleet")
    }
}
