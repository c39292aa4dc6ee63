import ConfigFile
import StationConfig
import SwitchboardCore
import TerminalUI

/// The `[kiosk]` table into ``StationSettings`` (`StationSettings`):
///
/// ```toml
/// [kiosk]
/// idle_timeout = 120          # seconds, 1 to 86400
/// countdown = 15              # seconds, 1 to 600
/// greeting = "Lab station 3"
/// providers = ["demo"]
/// operator_key = "F12"        # F1 to F12, or ctrl- and a letter
/// remember_last = true
/// power = { reboot = ["systemctl", "reboot"], poweroff = ["systemctl", "poweroff"] }
/// command = ["bash", "--login"]
/// ```
enum KioskSection {
    /// The keys `[kiosk]` takes.
    static let keys = ["idle_timeout", "countdown", "greeting", "providers", "operator_key", "remember_last", "power", "command"]

    /// The station's settings, and `operator_key` as written when it is
    /// set; the defaults when there is no table.
    static func parse(_ table: TOMLTable?) throws(ConfigError) -> (StationSettings, WrittenOperatorKey?) {
        var settings = StationSettings()
        var written: WrittenOperatorKey?
        guard let table else { return (settings, nil) }
        try table.rejectUnknownKeys(allowed: keys)
        if let value = try table.optionalInteger("idle_timeout", in: 1...86_400) { settings.idleTimeout = Double(value) }
        if let value = try table.optionalInteger("countdown", in: 1...600) { settings.countdown = Double(value) }
        settings.greeting = try table.optionalString("greeting")
        settings.providers = try table.optionalStringArray("providers")?.map { ProviderID($0) }
        if let name = try table.optionalString("operator_key") {
            settings.operatorKey = try operatorKey(named: name, table: table)
            written = WrittenOperatorKey(key: settings.operatorKey, name: name, table: table)
        }
        settings.rememberLast = try table.optionalBool("remember_last") ?? false
        if let power = try table.optionalTable("power") { settings.power = try self.power(power) }
        settings.command = try command(table)
        return (settings, written)
    }

    /// `power`: the operator menu's reboot and power-off commands.
    private static func power(_ table: TOMLTable) throws(ConfigError) -> StationPower {
        try table.rejectUnknownKeys(allowed: ["reboot", "poweroff"])
        var power = StationPower()
        for key in ["reboot", "poweroff"] {
            guard let command = try table.optionalStringArray(key) else { continue }
            guard let program = command.first, !program.isEmpty else {
                throw table.error(key: key, "expected a program and its arguments, such as [\"systemctl\", \"\(key)\"], found an empty command")
            }
            if key == "reboot" { power.reboot = command } else { power.powerOff = command }
        }
        return power
    }

    /// `command`: the hand-off command, a program and its arguments.
    private static func command(_ table: TOMLTable) throws(ConfigError) -> [String]? {
        guard let command = try table.optionalStringArray("command") else { return nil }
        guard let program = command.first, !program.isEmpty else {
            throw table.error(key: "command", "name the program to run first, as in [\"bash\", \"--login\"]")
        }
        guard !command.contains(where: { $0.utf8.contains(0) }) else {
            throw table.error(key: "command", "a NUL character cannot be passed to a program")
        }
        return command
    }

    /// The key `name` stands for: `F1`…`F12`, or `ctrl-` and a letter
    /// (`^O` too). Whether the chooser already uses it is for the chooser
    /// to say (`SwitchboardConfiguration.checkOperatorKey(taken:)`).
    static func operatorKey(named name: String, table: TOMLTable) throws(ConfigError) -> Key {
        let lower = name.lowercased()
        var key: Key?
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...12).contains(number) {
            key = .function(number)
        } else {
            for prefix in ["ctrl-", "ctrl+", "c-", "^"] where lower.hasPrefix(prefix) {
                let rest = lower.dropFirst(prefix.count)
                if rest.count == 1, let letter = rest.first, letter.isASCII, letter.isLetter { key = .control(letter) }
            }
        }
        guard let key else {
            throw table.error(key: "operator_key", "expected F1 to F12 or ctrl- and a letter (such as \"ctrl-o\"), found \"\(name.displaySafe)\"")
        }
        // These arrive as Backspace, Tab and Enter: the terminal sends the same byte.
        if case .control(let letter) = key, "hijm".contains(letter) {
            throw table.error(key: "operator_key", "\"\(name.displaySafe)\" cannot be told apart from Backspace, Tab or Enter; choose another key")
        }
        return key
    }
}

/// `[kiosk] operator_key` as the file wrote it, kept for the one check
/// `Configuration` cannot make: whether the chooser already uses the key.
struct WrittenOperatorKey: Sendable {
    let key: Key
    /// The name as written, quoted in the error.
    let name: String
    /// Where it is written: the file, its line and `kiosk.operator_key`.
    let file: String, line: Int?, path: String?

    init(key: Key, name: String, table: TOMLTable) {
        self.key = key
        self.name = name
        let place = table.error(key: "operator_key", "")
        (file, line, path) = (place.file, place.line, place.key)
    }

    /// An error about it that says `message`.
    func error(_ message: String) -> ConfigError { ConfigError(file: file, line: line, key: path, message: message) }
}

extension SwitchboardConfiguration {
    /// Refuses `[kiosk] operator_key` when `taken` says why its key cannot
    /// be a station's operator key (the chooser's key table knows:
    /// `StationSettings.operatorKeyTaken` in `ChooserUI`), with the file, line
    /// and key as every error about the file; nothing to refuse when the
    /// file sets no operator key. `switchboard kiosk` checks it after
    /// reading the file: the commands that read it without a station have
    /// no use for the key.
    public func checkOperatorKey(taken: (Key) -> String?) throws(ConfigError) {
        guard let written = operatorKeyWritten, let why = taken(written.key) else { return }
        throw written.error("\"\(written.name.displaySafe)\" \(why); choose another key")
    }
}
