import ArgumentParser
import Dispatch
import Foundation
import Services
import Store
import SwitchboardCore

/// `switchboard log`: the event log as lines people read (time, session,
/// who, what), filtered by station, account and time; `--follow` goes on
/// with each new event as it commits, through the store's change watch.
/// Only what the rules logged is shown, and of that no field that could
/// hold a secret (`EventWording.shown`).
struct LogCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Print the event log: sign-ins, switches, sign-outs, disconnects, PIN changes, credential checks.",
        discussion: """
            Each line: the time (UTC), the session (STATION/TERMINAL on a shared store), who, what. --json prints \
            one object a line. --since takes a time (2026-11-24, 2026-11-24T14:00:00Z) or a span back from now \
            (90s, 30m, 2h, 7d). --follow keeps printing events as any station or program commits them, until \
            interrupted. Tokens, PINs and codes are never logged, so never shown.
            """)

    @OptionGroup var options: CommonOptions

    @Option(name: .long, help: "Only this station's sessions.")
    var station: String?

    @Option(name: .long, help: "Only this account's events (its name or id).")
    var account: String?

    @Option(name: .long, help: "Only events since this time or span (2026-11-24T14:00:00Z, 2h, 7d).")
    var since: String?

    @Option(name: .long, help: "At most this many events (the newest) before following.")
    var limit = 200

    @Flag(name: .long, help: "Keep running: print each new event as it commits.")
    var follow = false

    func validate() throws {
        if let since, LogTime.parse(since, now: Date()) == nil {
            throw ValidationError("--since \(since.displaySafe): give a time (2026-11-24, 2026-11-24T14:00:00Z) or a span (90s, 30m, 2h, 7d)")
        }
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        var opened: AppDatabase?
        // A span back from now is back from the fleet's now: the server's clock stamps its events.
        var now = Date()
        try io.reportingErrors { () throws(StoreError) in
            opened = try context.openDatabase(.readOnlyIfUnwritable)
            if since != nil, let database = opened { now = try database.serverTime() }
        }
        guard let database = opened else { return }
        var query = LogQuery(station: station, account: account, since: since.flatMap { LogTime.parse($0, now: now) }, limit: limit)
        // Watching starts before the first read, so nothing committed in between is missed.
        let wakes = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        var watch: (any ChangeWatch)?
        if follow {
            try io.reportingErrors { () throws(StoreError) in
                watch = try database.watchChanges(on: DispatchQueue(label: "switchboard.log")) { _ in wakes.continuation.yield() }
            }
        }
        defer { watch?.cancel() }
        try io.reportingErrors { () throws(StoreError) in
            // The newest event before the first read: whatever commits after it is followed (writes commit in id order).
            let newest = follow ? try database.events(LogQuery(limit: 1)).last?.id ?? 0 : 0
            let entries = try database.events(query)
            // A name nobody ever went by is said, not answered with silence (an id may simply have no events).
            if entries.isEmpty, let account, Int64(account) == nil, try !database.knowsAccount(named: account) {
                throw StoreError.accountNotFound(account)
            }
            print(entries, io: io)
            query.after = max(entries.last?.id ?? 0, newest)
        }
        guard follow else { return }
        query.newest = false
        query.since = nil
        for await _ in wakes.stream {
            // A SQLite commit can show a moment after the file change that woke us: look again a few times.
            for delay in [0, 1, 4, 16, 64] {
                if delay > 0 { try? await Task.sleep(for: .milliseconds(delay)) }
                do {
                    let entries = try database.events(query)
                    print(entries, io: io)
                    query.after = entries.last?.id ?? query.after
                } catch {
                    io.stderr.write("switchboard: \(error.description.displaySafe)\n")
                }
            }
            if Task.isCancelled { break }
        }
    }

    private func print(_ entries: [LogEntry], io: CommandIO) {
        for entry in entries {
            if options.json { io.printJSON(LogLine.JSON(entry)) } else { io.print(LogLine.text(entry)) }
        }
    }
}

/// `--since`: a time, or a span back from now.
enum LogTime {
    static func parse(_ text: String, now: Date) -> Date? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        if let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count >= 0, count.isFinite {
            return now.addingTimeInterval(-count * unit)
        }
        let full = ISO8601DateFormatter()
        if let date = full.date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        return day.date(from: text)
    }
}

/// How an event reads.
enum LogLine {
    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        return formatter.string(from: date)
    }

    static func who(_ entry: LogEntry) -> String { EventWording.who(entry) }

    static func what(_ entry: LogEntry) -> String { EventWording.what(entry) }

    /// `TIME  SESSION  WHO  WHAT`, every field display-safe. An event of no
    /// session names the role that appended it, when the server said.
    static func text(_ entry: LogEntry) -> String {
        let session = entry.session ?? entry.origin.map { "- (\($0))" } ?? "-"
        return [time(entry.at), session, who(entry), what(entry)].map(\.displaySafe).joined(separator: "  ")
    }

    /// `--json`: one object a line.
    struct JSON: Encodable {
        struct Who: Encodable {
            let id: Int64
            @Null var name: String?
        }

        let id: Int64
        let at: String
        @Null var session: String?
        let kind: String
        @Null var account: Who?
        let detail: [String: String]
        let text: String
        /// The role whose connection appended it (a shared store's server says).
        @Null var origin: String?

        init(_ entry: LogEntry) {
            id = entry.id
            at = LogLine.time(entry.at)
            session = entry.session
            kind = entry.kind
            account = entry.account.map { Who(id: $0, name: entry.accountName) }
            detail = entry.detail.filter { EventWording.shown.contains($0.key) }
            text = LogLine.what(entry)
            origin = entry.origin
        }
    }
}
