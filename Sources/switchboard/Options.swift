import ArgumentParser
import Configuration
import DeviceFlow
import Foundation
import Services
import Store
import SwitchboardCore

/// A command that takes the common options.
protocol TakesCommonOptions {
    var options: CommonOptions { get }
}

/// Options every subcommand takes.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "The database file (default: $SWITCHBOARD_DATABASE, else $XDG_DATA_HOME/switchboard/switchboard.sqlite).")
    var database: String?

    @Option(name: .long, help: "A shared PostgreSQL store's postgresql:// URL (default: $SWITCHBOARD_STORE, else config.toml's [store] url); its password comes from ~/.pgpass, never from here.")
    var store: String?

    @Option(name: .long, help: "The session to act in (default: $SWITCHBOARD_SESSION, else this terminal, else the machine default; '*' names the machine default).")
    var session: String?

    @Flag(name: .long, help: "Print JSON for scripts.")
    var json = false

    @Option(name: .long, help: "The configuration file (default: $SWITCHBOARD_CONFIG, else $XDG_CONFIG_HOME/switchboard/config.toml).")
    var config: String?

    /// config.toml, read once: every section, each a typed value. Errors
    /// name file, line and key; warnings (client secrets others can read)
    /// go to standard error.
    func configuration(_ io: CommandIO) throws -> SwitchboardConfiguration {
        let path = SwitchboardConfiguration.path(explicit: config, environment: io.environment).path
        do {
            let configuration = try io.readings.configuration(at: path)
            if io.readings.shouldWarn(path) {
                for warning in configuration.warnings { io.stderr.write("switchboard: warning: \(warning)\n") }
            }
            return configuration
        } catch {
            throw io.fail(error.description, .configuration)
        }
    }

    /// The providers: configured ones and Demo, from `configuration(_:)`.
    func providerConfiguration(_ io: CommandIO) throws -> ProviderConfiguration {
        try configuration(io).providers
    }

    /// What to say when the configuration file named by `--config` or
    /// `SWITCHBOARD_CONFIG` is missing (the command then runs with defaults).
    func missingConfigNotice(environment: [String: String]) -> String? {
        SwitchboardConfiguration.missingFileNotice(explicit: config, environment: environment)
    }

    /// Opens the store this invocation uses (`storeChoice`); a command
    /// that only reads passes `.readOnlyIfUnwritable`, so it works on a
    /// file or folder it may not write.
    /// The chooser and the kiosk pass `waitForServer`: a shared store's
    /// server that is down shows as offline there, not as an exit.
    /// A server on another machine reached with a weaker `sslmode` than
    /// `verify-full` is warned of on standard error, every time.
    func openDatabase(_ io: CommandIO, _ access: AppDatabase.Access = .readWrite, waitForServer: Bool = false) throws(StoreError) -> AppDatabase {
        let choice = try storeChoice(io)
        if let warning = choice.location.transportWarning { io.stderr.write("switchboard: warning: \(warning)\n") }
        // The server's pg_stat_activity tells stations apart: `switchboard lab-3`.
        let name = choice.station.map { "switchboard " + $0 } ?? "switchboard"
        let database = try AppDatabase(
            choice.location, access: access, pinRounds: io.pinRounds, waitForServer: waitForServer, deadline: choice.deadline, applicationName: name)
        try checkStation(choice.station, of: database)
        return database
    }

    /// On a shared store, the station this connection's role belongs to
    /// (the server says, `switchboard fleet add`) must be the one
    /// `[store] station` names: else every session of this station would
    /// be refused by the server, one by one. A role of no station (the
    /// owner's, the operator's) and a server not answering yet pass.
    private func checkStation(_ station: String?, of database: AppDatabase) throws(StoreError) {
        guard let station, let own = try? database.serverStation(), own != station else { return }
        throw .badLocation("this store's role is station \(String(reflecting: own).displaySafe)'s (the server says so), but this "
            + "station is named \(String(reflecting: station).displaySafe) ([store] station, else the host name): set station = "
            + "\(String(reflecting: own).displaySafe) in config.toml's [store]")
    }

    /// Which store this invocation uses, and on a shared one this station's
    /// name: `--store URL`, else `--database FILE`, else `SWITCHBOARD_STORE`,
    /// else `SWITCHBOARD_DATABASE`, else config.toml's `[store] url`, else
    /// the SQLite file in its default place. The station is `[store]
    /// station`, else the host name. A URL on the command line may not
    /// carry a password (the process list shows arguments).
    /// On a server, `deadline` is `[store] timeout`: how long it has to answer.
    func storeChoice(_ io: CommandIO) throws(StoreError) -> (location: StoreLocation, station: String?, deadline: Double) {
        let environment = io.environment
        func server(_ url: String, from source: String) throws(StoreError) -> (StoreLocation, String?, Double) {
            if let problem = StoreSettings.urlProblem(url) { throw .badLocation("\(source): \(problem)") }
            if source == "--store", StoreSettings.carriesPassword(url) {
                throw .badLocation("--store: the URL holds a password, which any user can read in the process list; keep it in "
                    + "~/.pgpass (or the file PGPASSFILE or passfile= names) and give the URL without it")
            }
            let settings = try settings(io)
            return (.server(url), settings.station ?? TerminalIdentity.hostName(), settings.deadline)
        }
        if store != nil, database != nil { throw .badLocation("--store and --database name two stores; give one") }
        if let store { return try server(store, from: "--store") }
        if database == nil, let url = environment["SWITCHBOARD_STORE"], !url.isEmpty {
            return try server(url, from: "SWITCHBOARD_STORE")
        }
        if database == nil, (environment["SWITCHBOARD_DATABASE"] ?? "").isEmpty {
            let settings = try settings(io)
            if let url = settings.url { return (.server(url), settings.station ?? TerminalIdentity.hostName(), settings.deadline) }
        }
        return (.file(DatabaseLocation.resolve(explicit: database, environment: environment)), nil, StoreDeadline.standard)
    }

    /// `[store]` from config.toml (errors as `badLocation`, naming file, line and key).
    private func settings(_ io: CommandIO) throws(StoreError) -> StoreSettings {
        let path = SwitchboardConfiguration.path(explicit: config, environment: io.environment).path
        do { return try io.readings.configuration(at: path).store } catch { throw .badLocation(error.description) }
    }


    /// What reports this kiosk to the fleet: the station's name (`[store]
    /// station`, else the host name, on either engine), its terminal and
    /// session, and the version, with a heartbeat every 30 seconds
    /// (`SWITCHBOARD_HEARTBEAT_SECONDS`, for tests, sets another whole
    /// number of seconds). A failed write is shown nowhere (the screen is
    /// the person's): the next heartbeat tries again.
    func stationReporter(_ io: CommandIO, database: AppDatabase, session: SessionKey) -> StationReporter {
        let named = (try? settings(io).station) ?? nil
        let station = named ?? TerminalIdentity.hostName()
        let terminal = io.terminal()?.name ?? session.rawValue
        let seconds = io.environment["SWITCHBOARD_HEARTBEAT_SECONDS"].flatMap { Int($0) }.flatMap { (1...3600).contains($0) ? $0 : nil } ?? 30
        return StationReporter(
            database: database, station: station, terminal: terminal, session: session.rawValue,
            version: Switchboard.configuration.version, instance: StationReporter.instance(environment: io.environment),
            nameIsHostName: named == nil, interval: .seconds(seconds))
    }

    /// The session this invocation acts in. A terminal's own session ends
    /// with the terminal. With no terminal and no session named, a command
    /// that `writes` who is active is refused: the machine-wide default is
    /// set only by naming it.
    /// The terminal is `io.terminal`: the controlling one, or the one the
    /// chooser draws on.
    /// On a shared store the terminal's session is `STATION/TERMINAL`.
    func sessionKey(_ io: CommandIO, writes: Bool = false) throws -> SessionKey {
        let environment = io.environment
        let station: String?
        do { station = try storeChoice(io).station } catch { throw io.fail(error.description, ExitStatus(error)) }
        let terminal = io.terminal().map { terminal in station.map { terminal.at(station: $0) } ?? terminal }
        switch SessionKey.resolve(explicit: session, environment: environment, terminal: terminal) {
        case .success(let key):
            if writes, key.isMachine, !SessionKey.isNamed(explicit: session, environment: environment) {
                throw io.fail("this process has no terminal, so it has no session of its own to change; name one with "
                    + "--session NAME or SWITCHBOARD_SESSION=NAME (--session '*' changes the machine-wide default, "
                    + "which processes with no terminal act as)", .usage)
            }
            return key
        case .failure(let error): throw io.fail(error.description, .usage)
        }
    }
}
