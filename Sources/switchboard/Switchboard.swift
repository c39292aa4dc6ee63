import ArgumentParser
import Configuration
import Foundation

/// The `switchboard` command: the account chooser, and its commands for scripts.
@main
struct Switchboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "Choose which provider account this terminal acts as.",
        discussion: ExitStatus.documentation,
        version: "0.1.0",
        subcommands: [
            ChooserCommand.self, KioskCommand.self, AccountsCommand.self, StatusCommand.self, SwitchCommand.self, SignInCommand.self, SignOutCommand.self,
            DisconnectCommand.self, PINCommand.self, ProvidersCommand.self, DemoCommand.self,
            TokenCommand.self, EnvCommand.self, ExecCommand.self,
        ],
        defaultSubcommand: ChooserCommand.self
    )

    /// Parses the command line and runs the command; started as a login
    /// shell, runs the kiosk (see `Invocation`). A configuration file
    /// named but missing is said once here, for every command but the
    /// chooser, which shows it on screen.
    static func main() async {
        switch Invocation(CommandLine.arguments) {
        case .arguments(let arguments): await parseAndRun(arguments)
        case .refused(let reason): exit(withError: fail(reason, .usage))
        }
    }

    /// Off the main actor, where `run()` is: the command is not sent across.
    nonisolated private static func parseAndRun(_ arguments: [String]) async {
        do {
            var command = try parseAsRoot(arguments)
            if !(command is ChooserCommand) {
                let notice = (command as? TakesCommonOptions).map { $0.options.missingConfigNotice }
                    ?? SwitchboardConfiguration.missingFileNotice(explicit: nil, environment: ProcessInfo.processInfo.environment)
                if let notice { FileHandle.standardError.write(Data("switchboard: \(notice)\n".utf8)) }
            }
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
