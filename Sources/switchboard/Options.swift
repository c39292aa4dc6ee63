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
    func configuration() throws -> SwitchboardConfiguration {
        let path = SwitchboardConfiguration.path(explicit: config, environment: ProcessInfo.processInfo.environment).path
        do {
            let configuration = try SwitchboardConfiguration.load(path: path)
            for warning in configuration.warnings {
                FileHandle.standardError.write(Data("switchboard: warning: \(warning)\n".utf8))
            }
            return configuration
        } catch {
            throw fail(error.description, .configuration)
        }
    }

    /// The providers: configured ones and Demo, from `configuration()`.
    func providerConfiguration() throws -> ProviderConfiguration {
        try configuration().providers
    }

    /// What to say when the configuration file named by `--config` or
    /// `SWITCHBOARD_CONFIG` is missing (the command then runs with defaults).
    var missingConfigNotice: String? {
        SwitchboardConfiguration.missingFileNotice(explicit: config, environment: ProcessInfo.processInfo.environment)
    }

    /// Opens the database this invocation uses; a command that only reads
    /// passes `.readOnlyIfUnwritable`, so it works on a file or folder it
    /// may not write.
    func openDatabase(_ access: AppDatabase.Access = .readWrite) throws(StoreError) -> AppDatabase {
        try AppDatabase(
            path: DatabaseLocation.resolve(explicit: database, environment: ProcessInfo.processInfo.environment), access: access)
    }

    /// The session this invocation acts in. A terminal's own session ends
    /// with the terminal. With no terminal and no session named, a command
    /// that `writes` who is active is refused: the machine-wide default is
    /// set only by naming it.
    /// `terminal` is the controlling terminal unless the caller knows better
    /// (the chooser: the terminal it draws on).
    func sessionKey(writes: Bool = false, terminal: TerminalIdentity? = TerminalIdentity.controlling()) throws -> SessionKey {
        let environment = ProcessInfo.processInfo.environment
        switch SessionKey.resolve(explicit: session, environment: environment, terminal: terminal) {
        case .success(let key):
            if writes, key.isMachine, !SessionKey.isNamed(explicit: session, environment: environment) {
                throw fail("this process has no terminal, so it has no session of its own to change; name one with "
                    + "--session NAME or SWITCHBOARD_SESSION=NAME (--session '*' changes the machine-wide default, "
                    + "which processes with no terminal act as)", .usage)
            }
            return key
        case .failure(let error): throw fail(error.description, .usage)
        }
    }
}
