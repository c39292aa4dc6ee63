import ArgumentParser
import Configuration
import DeviceFlow
import Foundation
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
            let configuration = try SwitchboardConfiguration.load(path: path)
            for warning in configuration.warnings {
                io.stderr.write("switchboard: warning: \(warning)\n")
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

    /// Opens the database this invocation uses; a command that only reads
    /// passes `.readOnlyIfUnwritable`, so it works on a file or folder it
    /// may not write.
    func openDatabase(_ io: CommandIO, _ access: AppDatabase.Access = .readWrite) throws(StoreError) -> AppDatabase {
        try AppDatabase(
            path: DatabaseLocation.resolve(explicit: database, environment: io.environment), access: access, pinRounds: io.pinRounds)
    }

    /// The session this invocation acts in. A terminal's own session ends
    /// with the terminal. With no terminal and no session named, a command
    /// that `writes` who is active is refused: the machine-wide default is
    /// set only by naming it.
    /// The terminal is `io.terminal`: the controlling one, or the one the
    /// chooser draws on.
    func sessionKey(_ io: CommandIO, writes: Bool = false) throws -> SessionKey {
        let environment = io.environment
        switch SessionKey.resolve(explicit: session, environment: environment, terminal: io.terminal()) {
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
