import ArgumentParser

/// The `switchboard` command: the scriptable face of the account chooser.
/// The launcher enters it through `switchboard_runtime_enter` (Entry.swift).
struct Switchboard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchboard",
        abstract: "Choose which provider account this terminal acts as.",
        discussion: ExitStatus.documentation,
        version: "0.1.0",
        subcommands: [
            ChooserCommand.self, AccountsCommand.self, StatusCommand.self, SwitchCommand.self, SignInCommand.self, SignOutCommand.self,
            DisconnectCommand.self, ProvidersCommand.self, DemoCommand.self,
        ],
        defaultSubcommand: ChooserCommand.self
    )
}
