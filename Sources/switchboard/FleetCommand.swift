import ArgumentParser
import Foundation
import Store
import SwitchboardCore

/// `switchboard fleet`: every station that reports itself to the store, a
/// row each: who is active there, since when, how long since its last key,
/// and its state. On a terminal it opens the operator's board (`FleetBoard`);
/// otherwise, and with `--json` (one object a line), it prints the rows once.
struct FleetCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "List the stations of the fleet: who is at each, since when, idle for how long, and whether it is up.",
        discussion: """
            A running kiosk reports itself every 30 seconds; one that missed three reports is offline. \
            States: in use (someone is active), idle (nobody is), running the hand-off (its command runs), locked out (wrong PINs there locked the account it was asked for, until the lock-out ends), offline. \
            The idle time counts from the last key, to the minute. On a terminal it opens the operator's board: \
            the same rows live, the selected station's recent events, and the operator's actions behind the operator PIN \
            (o signs the station's session out, r clears a person's wrong PINs, x disconnects them everywhere; ? lists the keys). \
            Printed output, --json or --once prints the rows once. \
            The store's owner gives each station a role of its own with `fleet add`.
            """,
        subcommands: [FleetAddCommand.self, FleetRemoveCommand.self, FleetRolesCommand.self])

    @OptionGroup var options: CommonOptions

    @Option(name: .long, help: "The board's colour theme, as for the chooser.")
    var theme: String?

    @Flag(name: .long, help: "Print the rows once, even on a terminal.")
    var once = false

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        if !options.json, !once, io.stdinIsTerminal, io.stdoutIsTerminal {
            return try await FleetBoard.open(context, theme: theme)
        }
        var rows: [FleetRow] = []
        var store = ""
        try io.reportingErrors { () throws(StoreError) in
            let database = try context.openDatabase(.readOnlyIfUnwritable)
            store = database.path
            // Stations' times are the fleet's (the server's): judged by its clock, not this machine's.
            let now = try database.serverTime()
            rows = try database.fleet().map { FleetRow($0, now: now) }
        }
        if options.json {
            for row in rows { io.printJSON(row) }
        } else if rows.isEmpty {
            io.print("No station has reported to this store (\(store.displaySafe)). A running kiosk (switchboard kiosk) reports itself; "
                + (store.hasPrefix("postgresql://") ? "the command line does not." : "a fleet's store is given with --store or [store] url."))
        } else {
            let table = [["STATION", "TERMINAL", "WHO", "SINCE", "IDLE", "STATE"]]
                + rows.map { [$0.station, $0.terminal, $0.active ?? "Anonymous", $0.since, StationStatus.span($0.idleSeconds), $0.state] }
            let widths = (0..<6).map { column in table.map { $0[column].displaySafe.count }.max() ?? 0 }
            for line in table {
                io.print(zip(line, widths).map { $0.displaySafe.padding(toLength: $1, withPad: " ", startingAt: 0) }
                    .joined(separator: "  ").trimmingCharacters(in: .whitespaces))
            }
        }
    }
}

/// One station of the fleet at a moment, as `fleet` shows it.
struct FleetRow: Encodable {
    let station: String
    let terminal: String
    let session: String
    /// Who is active: the account's name; nil (`null`) for Anonymous.
    @Null var active: String?
    /// Since when they are (or nobody is): ISO 8601.
    let since: String
    /// Seconds since the last key (or the start, before any key), to the minute's precision.
    let idleSeconds: Int
    /// `in use`, `idle`, `running the hand-off`, `locked out` (a PIN given wrong there locked the account) or `offline`.
    let state: String
    let version: String
    /// When the station last reported, ISO 8601.
    let heartbeat: String

    init(_ fleet: FleetStation, now: Date) {
        let report = fleet.report
        station = report.station
        terminal = report.terminal
        session = report.session
        active = fleet.account.map { id in fleet.accountName ?? "account \(id)" }
        // The later of the kiosk's start and the session's last change: who is there, since when.
        since = ISO8601DateFormatter().string(from: max(report.startedAt, fleet.since ?? report.startedAt))
        idleSeconds = max(0, Int(now.timeIntervalSince(report.lastKeyAt ?? report.startedAt)))
        state = StationStatus.of(fleet.facts, at: Moment(secondsSince1970: now.timeIntervalSince1970)).words
        version = report.version
        heartbeat = ISO8601DateFormatter().string(from: report.heartbeatAt)
    }
}
