import ArgumentParser
import ChooserUI
import Configuration
import Foundation
import StationConfig

/// `switchboard kiosk`: the chooser locked for a station people walk up to.
struct KioskCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "Run the chooser as a station: only choosing, signing in and help work; idle, it goes back to Anonymous.",
        discussion: """
            Settings come from the [kiosk] table of config.toml: idle_timeout (seconds without a key \
            before the countdown, default 120), countdown (seconds it shows, default 15), greeting (the \
            top bar's line; default the first line of --issue-file, else the program's name), providers \
            (the ones offered, default all configured), remember_last (start on the last person active \
            in this session, default false), operator_key (F1 to F12 or ctrl-LETTER, default F12), power \
            (reboot and poweroff commands for the operator menu), command (a program run as the person \
            chosen, with what exec gives; when it exits or is idle, the session signs out). The top bar \
            shows the local time. q, Ctrl-C, Ctrl-Z, Ctrl-\\, o, d and t only say that the station is \
            locked. The operator key and the operator PIN (switchboard pin set --operator) open the \
            operator menu: leave kiosk mode, sign the session out, disconnect, reboot, power off. A signal \
            (SIGTERM, or SIGHUP when its terminal goes) exits 128 + the signal's number. As a login shell \
            (-switchboard, as login(1) starts it) with no arguments, switchboard runs this; a login shell \
            given arguments, or -c COMMAND, runs nothing and exits 64.
            """)

    @OptionGroup var options: CommonOptions

    @Option(name: .long, help: "A colour theme, as for the chooser.")
    var theme: String?

    @Option(name: .long, help: "Where the greeting comes from when [kiosk] has none: its first line, getty escapes expanded.")
    var issueFile = "/etc/issue"

    func validate() throws {
        if options.json { throw ValidationError("the kiosk has no --json") }
    }

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let configuration = try context.configuration()
        do { try configuration.checkOperatorKey(taken: StationSettings.operatorKeyTaken) } catch { throw io.fail(error.description, .configuration) }
        var settings = configuration.kiosk
        if settings.greeting == nil, let issue = try? String(contentsOfFile: issueFile, encoding: .utf8) {
            // Missing or unreadable: the program's name, as without a greeting.
            settings.greeting = IssueGreeting.greeting(in: issue, context: Self.issueContext())
        }
        try await ChooserCommand.open(context, theme: theme, station: settings)
    }

    /// What /etc/issue's escapes name: this machine (uname) and terminal.
    static func issueContext() -> IssueGreeting.Context {
        var names = utsname()
        uname(&names)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let tty = ttyname(STDIN_FILENO).map { String(cString: $0) } ?? ""
        return IssueGreeting.Context(
            nodename: field(names.nodename), tty: tty.hasPrefix("/dev/") ? String(tty.dropFirst(5)) : tty,
            sysname: field(names.sysname), release: field(names.release), machine: field(names.machine), version: field(names.version))
    }
}
