import ArgumentParser
import Configuration
import Foundation
import Glibc

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
            TokenCommand.self, EnvCommand.self, ExecCommand.self, GitCredentialCommand.self, SetupGitCommand.self,
            KubeCredentialCommand.self, HookCommand.self, HookEnvCommand.self, AllowCommand.self, DenyCommand.self, StoreCommand.self,
            LogCommand.self, FleetCommand.self,
        ],
        defaultSubcommand: ChooserCommand.self
    )

    /// Parses the command line and runs the command with the process's
    /// own streams (`CommandIO.process()`); started as a login shell, runs
    /// the kiosk (see `Invocation`).
    static func main() async {
        let io = CommandIO.process()
        switch Invocation(CommandLine.arguments) {
        case .arguments(let arguments): Glibc.exit(await run(arguments, io: io))
        case .refused(let reason): Glibc.exit(io.fail(reason, .usage).rawValue)
        }
    }

    /// Parses `given` (what follows the program's name, put in order by
    /// `CommandWords`) and runs the
    /// command with `io`; returns the exit status, having said on `io` what
    /// ArgumentParser says for help, versions and bad arguments. A
    /// configuration file named but missing is said once here, for every
    /// command but the chooser, which shows it on screen.
    ///
    /// Off the main actor, where `run()` is: the command is not sent across.
    nonisolated static func run(_ given: [String], io: CommandIO) async -> Int32 {
        let commands = configuration.subcommands.compactMap { $0.configuration.commandName }
        let arguments: [String]
        switch CommandWords.arrange(given, commands: commands) {
        case .success(let arranged): arguments = arranged
        case .failure(let error): return io.fail(error.description, .usage).rawValue
        }
        do {
            var command = try parseAsRoot(arguments)
            // The chooser and the kiosk show it as a toast instead.
            if !(command is ChooserCommand || command is KioskCommand) {
                let notice = (command as? TakesCommonOptions).map { CommandContext($0.options, io: io).missingConfigNotice() }
                    ?? SwitchboardConfiguration.missingFileNotice(explicit: nil, environment: io.environment)
                if let notice { io.stderr.write("switchboard: \(notice)\n") }
            }
            if let command = command as? any IOCommand {
                try await command.run(io: io)
            } else if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            return ExitCode.success.rawValue
        } catch {
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty { (status == .success ? io.stdout : io.stderr).write(message + "\n") }
            return status.rawValue
        }
    }
}
