import ArgumentParser
import Foundation
import Store
import SwitchboardCore

/// `switchboard fleet add STATION`: the store's owner gives a station a
/// role of its own. The password goes into a file of mode 0600 (never the
/// screen or the arguments), to be copied to the station as `~/.pgpass`;
/// the screen says what the station's `config.toml` holds.
struct FleetAddCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Give a station a PostgreSQL role of its own (run as the store's owner).",
        discussion: """
            The server then decides which station a connection acts for: the role reaches only that station's own \
            sessions and station rows, and the tokens of the accounts its sessions have active. The role's password \
            is written to a new file (STATION.pgpass unless --pgpass names another), mode 0600, as a line of ~/.pgpass: \
            copy it to the station, and keep no other copy. The owner needs CREATEROLE.
            """)

    @OptionGroup var options: CommonOptions

    @Argument(help: "The station's name, as its [store] station says (no \"/\").")
    var station: String

    @Option(name: .long, help: "The role's name (default: switchboard_ and the station's name).")
    var role: String?

    @Option(name: .long, help: "The new file the role's ~/.pgpass line goes to (default: STATION.pgpass here).")
    var pgpass: String?

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        if let problem = AppDatabase.stationNameProblem(station) {
            throw io.fail("invalid station name \(String(reflecting: station)): \(problem)", .usage)
        }
        let path = pgpass ?? station + ".pgpass"
        // Made first, empty and private, so the role is never made with nowhere to put its password.
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            let reason = errno == EEXIST ? "it exists already (nothing is overwritten)" : String(cString: strerror(errno))
            throw io.fail("--pgpass \(path): cannot make the file: \(reason)", .usage)
        }
        var login: StationLogin?
        var url: String?
        do {
            try io.reportingErrors { () throws(StoreError) in
                let database = try context.openDatabase()
                login = try database.addStation(station, role: role)
                url = try context.storeChoice().location.url(asRole: login!.role.role)
            }
        } catch {
            close(file)
            unlink(path)
            throw error
        }
        guard let login else { return }
        DescriptorOutput(descriptor: file).write(login.pgpassLine)
        close(file)
        if options.json {
            return io.printJSON(AddJSON(station: login.role.station, role: login.role.role, pgpass: path, url: url))
        }
        io.print("""
            Station \(login.role.station) connects as role \(login.role.role), which reaches only its own sessions.
            Its password is in \(path) (mode 0600): copy that file to the station as ~/.pgpass of the user the kiosk runs as \
            (add its line to one that is there), keep it mode 0600, and delete \(path) here.
            The station's config.toml:

                [store]
                url = \(String(reflecting: url ?? "postgresql://\(login.role.role)@HOST/\(login.database)"))
                station = \(String(reflecting: login.role.station))
            """)
    }

    struct AddJSON: Encodable {
        let station: String
        let role: String
        let pgpass: String
        let url: String?
    }
}

/// `switchboard fleet remove STATION`: the station's role is dropped (a
/// lost or retired station); its sessions' history stays.
struct FleetRemoveCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Take a station's role away: it can no longer connect (run as the store's owner).",
        discussion: "The role and its grants go; what the station did stays in the log. `fleet add` gives it a new role and password.")

    @OptionGroup var options: CommonOptions

    @Argument(help: "The station's name.")
    var station: String

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        try io.reportingErrors { () throws(StoreError) in
            let removed = try context.openDatabase().removeStation(station)
            if options.json { return io.printJSON(removed) }
            io.print("Station \(removed.station.displaySafe)'s role \(removed.role.displaySafe) is gone: it can no longer connect.")
        }
    }
}

/// `switchboard fleet roles`: the stations that have roles of their own.
struct FleetRolesCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "roles", abstract: "List the stations that have PostgreSQL roles of their own, with the role of each.")

    @OptionGroup var options: CommonOptions

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        try io.reportingErrors { () throws(StoreError) in
            let roles = try context.openDatabase(.readOnlyIfUnwritable).stationRoles()
            if options.json { return roles.forEach { io.printJSON($0) } }
            if roles.isEmpty { return io.print("No station has a role of its own (`switchboard fleet add STATION` gives one).") }
            let width = max(7, roles.map { $0.station.displaySafe.count }.max() ?? 0)
            io.print("STATION".padding(toLength: width, withPad: " ", startingAt: 0) + "  ROLE")
            for role in roles { io.print(role.station.displaySafe.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + role.role.displaySafe) }
        }
    }
}
