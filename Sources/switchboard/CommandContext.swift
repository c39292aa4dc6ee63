import ArgumentParser
import Configuration
import DeviceFlow
import Foundation
import Services
import Store
import SwitchboardCore

/// Which store an invocation uses: where it is, on a shared store this
/// station's name, and how long its server has to answer.
typealias StoreChoice = (location: StoreLocation, station: String?, deadline: Double, watching: StoreWatching)

/// One invocation's composition root: what a command works with, worked
/// out once from the process's `CommandIO` and the common flags, and kept:
/// config.toml read once, the store chosen and opened once, the session
/// resolved once (for reading, and for writing), and what is built from
/// them (a station's reporter). Commands take their store, session and
/// configuration from here, never from the flags themselves.
final class CommandContext {
    /// The invocation's input, output and environment. The chooser sets
    /// `terminal` to the one it draws on before anything is resolved.
    var io: CommandIO
    let options: CommonOptions
    private var configurationRead: SwitchboardConfiguration?
    private var chosen: StoreChoice?
    private var opened: (database: AppDatabase, access: AppDatabase.Access, waitForServer: Bool)?
    private var sessions: [Bool: SessionKey] = [:]

    init(_ options: CommonOptions, io: CommandIO) {
        self.options = options
        self.io = io
    }

    /// config.toml, read once: every section, each a typed value. Errors
    /// name file, line and key; warnings (client secrets others can read)
    /// go to standard error.
    func configuration() throws -> SwitchboardConfiguration {
        if let configurationRead { return configurationRead }
        let path = SwitchboardConfiguration.path(explicit: options.config, environment: io.environment).path
        do {
            let configuration = try io.readings.configuration(at: path)
            if io.readings.shouldWarn(path) {
                for warning in configuration.warnings { io.stderr.write("switchboard: warning: \(warning)\n") }
            }
            configurationRead = configuration
            return configuration
        } catch {
            throw io.fail(error.description, .configuration)
        }
    }

    /// What to say when the configuration file named by `--config` or
    /// `SWITCHBOARD_CONFIG` is missing (the command then runs with defaults).
    func missingConfigNotice() -> String? {
        SwitchboardConfiguration.missingFileNotice(explicit: options.config, environment: io.environment)
    }

    /// Opens the store this invocation uses (`storeChoice`); a command
    /// that only reads passes `.readOnlyIfUnwritable`, so it works on a
    /// file or folder it may not write.
    /// The chooser and the kiosk pass `waitForServer`: a shared store's
    /// server that is down shows as offline there, not as an exit.
    /// A server on another machine reached with a weaker `sslmode` than
    /// `verify-full` is warned of on standard error, every time.
    func openDatabase(_ access: AppDatabase.Access = .readWrite, waitForServer: Bool = false) throws(StoreError) -> AppDatabase {
        // Opened once per invocation, for the access it was opened with; another access is opened on its own.
        if let opened, opened.access == access, opened.waitForServer == waitForServer { return opened.database }
        let choice = try storeChoice()
        if let warning = choice.location.transportWarning { io.stderr.write("switchboard: warning: \(warning)\n") }
        // The server's pg_stat_activity tells stations apart: `switchboard lab-3`.
        let name = choice.station.map { "switchboard " + $0 } ?? "switchboard"
        let database = try AppDatabase(
            choice.location, access: access, pinRounds: io.pinRounds, waitForServer: waitForServer, deadline: choice.deadline, watching: choice.watching,
            applicationName: name)
        try checkStation(choice.station, of: database)
        if opened == nil { opened = (database, access, waitForServer) }
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
    /// On a server, `deadline` is `[store] timeout`: how long it has to answer;
    /// `watching` is `[store] watch`.
    func storeChoice() throws(StoreError) -> StoreChoice {
        if let chosen { return chosen }
        let choice = try chooseStore()
        chosen = choice
        return choice
    }

    private func chooseStore() throws(StoreError) -> StoreChoice {
        let environment = io.environment
        let store = options.store, database = options.database
        func server(_ url: String, from source: String) throws(StoreError) -> StoreChoice {
            if let problem = StoreSettings.urlProblem(url) { throw .badLocation("\(source): \(problem)") }
            if source == "--store", StoreSettings.carriesPassword(url) {
                throw .badLocation("--store: the URL holds a password, which any user can read in the process list; keep it in "
                    + "~/.pgpass (or the file PGPASSFILE or passfile= names) and give the URL without it")
            }
            let settings = try settings()
            return (.server(url), settings.station ?? TerminalIdentity.hostName(), settings.deadline, settings.watching)
        }
        if store != nil, database != nil { throw .badLocation("--store and --database name two stores; give one") }
        if let store { return try server(store, from: "--store") }
        if database == nil, let url = environment["SWITCHBOARD_STORE"], !url.isEmpty {
            return try server(url, from: "SWITCHBOARD_STORE")
        }
        if database == nil, (environment["SWITCHBOARD_DATABASE"] ?? "").isEmpty {
            let settings = try settings()
            if let url = settings.url { return (.server(url), settings.station ?? TerminalIdentity.hostName(), settings.deadline, settings.watching) }
        }
        return (.file(DatabaseLocation.resolve(explicit: database, environment: environment)), nil, StoreDeadline.standard, .listen)
    }

    /// `[store]` from config.toml (errors as `badLocation`, naming file, line and key).
    private func settings() throws(StoreError) -> StoreSettings {
        let path = SwitchboardConfiguration.path(explicit: options.config, environment: io.environment).path
        do { return try io.readings.configuration(at: path).store } catch { throw .badLocation(error.description) }
    }


    /// What reports this kiosk to the fleet: the station's name (`[store]
    /// station`, else the host name, on either engine), its terminal and
    /// session, and the version, with a heartbeat every 30 seconds
    /// (`SWITCHBOARD_HEARTBEAT_SECONDS`, for tests, sets another whole
    /// number of seconds). A failed write is shown nowhere (the screen is
    /// the person's): the next heartbeat tries again.
    func stationReporter(database: AppDatabase, session: SessionKey) -> StationReporter {
        let named = (try? settings().station) ?? nil
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
    func sessionKey(writes: Bool = false) throws -> SessionKey {
        if let resolved = sessions[writes] { return resolved }
        let session = options.session
        let environment = io.environment
        let station: String?
        do { station = try storeChoice().station } catch { throw io.fail(error.description, ExitStatus(error)) }
        let terminal = io.terminal().map { terminal in station.map { terminal.at(station: $0) } ?? terminal }
        switch SessionKey.resolve(explicit: session, environment: environment, terminal: terminal) {
        case .success(let key):
            if writes, key.isMachine, !SessionKey.isNamed(explicit: session, environment: environment) {
                throw io.fail("this process has no terminal, so it has no session of its own to change; name one with "
                    + "--session NAME or SWITCHBOARD_SESSION=NAME (--session '*' changes the machine-wide default, "
                    + "which processes with no terminal act as)", .usage)
            }
            sessions[writes] = key
            return key
        case .failure(let error): throw io.fail(error.description, .usage)
        }
    }
}
