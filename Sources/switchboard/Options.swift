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

/// Options every subcommand takes: flags only. What they choose (the
/// configuration, the store, the session) is worked out once per
/// invocation by its `CommandContext`.
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
}
