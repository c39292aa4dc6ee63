import ArgumentParser
import ChooserUI
import ConfigFile
import DeviceFlow
import Foundation

/// `switchboard kiosk`: the chooser locked for a station people walk up to.
struct KioskCommand: AsyncParsableCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Run the chooser as a station: only choosing, signing in and help work; idle, it goes back to Anonymous.",
        discussion: """
            Settings come from the [kiosk] table of config.toml: idle_timeout (seconds without a key \
            before the countdown, default 120), countdown (seconds it shows, default 15), greeting (the \
            top bar's line), providers (the ones offered, default all configured), command (a program run \
            as the person chosen, with what exec gives; when it exits or is idle, the session signs out). \
            q, Ctrl-C, Ctrl-Z, \
            Ctrl-\\, o, d and t only say that the station is locked. F12 and the operator PIN (switchboard \
            pin set --operator) open the operator menu: leave kiosk mode, sign the session out, disconnect. \
            A signal (SIGTERM, or SIGHUP when its terminal goes) exits 128 + the signal's number. As a \
            login shell (-switchboard, as login(1) starts it) with no arguments, switchboard runs this; a \
            login shell given arguments, or -c COMMAND, runs nothing and exits 64.
            """)

    @OptionGroup var options: CommonOptions

    @Option(name: .long, help: "A colour theme, as for the chooser.")
    var theme: String?

    func validate() throws {
        if options.json { throw ValidationError("the kiosk has no --json") }
    }

    func run() async throws {
        let path = ProviderConfiguration.path(explicit: options.config, environment: ProcessInfo.processInfo.environment).path
        let settings: KioskSettings
        do {
            let table = FileManager.default.fileExists(atPath: path) ? try ConfigFile.load(path: path).root.optionalTable("kiosk") : nil
            settings = try KioskSettings.parse(table)
        } catch {
            throw fail(error.description, .configuration)
        }
        try await ChooserCommand.open(options: options, theme: theme, kiosk: settings)
    }
}
