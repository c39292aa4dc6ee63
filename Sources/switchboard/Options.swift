import ArgumentParser
import Foundation
import Store
import SwitchboardCore

/// Options every subcommand takes.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: "The database file (default: $SWITCHBOARD_DATABASE, else $XDG_DATA_HOME/switchboard/switchboard.sqlite).")
    var database: String?

    @Option(name: .long, help: "The session to act in (default: $SWITCHBOARD_SESSION, else this terminal, else the machine default).")
    var session: String?

    @Flag(name: .long, help: "Print JSON for scripts.")
    var json = false

    /// Opens the database this invocation uses.
    func openDatabase() throws(StoreError) -> AppDatabase {
        try AppDatabase(path: DatabaseLocation.resolve(explicit: database, environment: ProcessInfo.processInfo.environment))
    }

    /// The session this invocation acts in.
    func sessionKey() throws -> SessionKey {
        switch SessionKey.resolve(explicit: session, environment: ProcessInfo.processInfo.environment, terminalName: terminalName()) {
        case .success(let key): return key
        case .failure(let error): throw fail(error.description, .usage)
        }
    }

    /// The controlling terminal's name without `/dev/`, if any.
    private func terminalName() -> String? {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            if let name = ttyname(descriptor) {
                let path = String(cString: name)
                return path.hasPrefix("/dev/") ? String(path.dropFirst(5)) : path
            }
        }
        return nil
    }
}
