import ChooserUI
import ConfigFile
import SwitchboardCore
import TerminalUI

/// The `[kiosk]` table into ChooserUI's ``KioskSettings``:
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

    /// The station's settings; the defaults when there is no table.
    static func parse(_ table: TOMLTable?) throws(ConfigError) -> KioskSettings {
        var settings = KioskSettings()
        guard let table else { return settings }
        try table.rejectUnknownKeys(allowed: keys)
        if let value = try table.optionalInteger("idle_timeout", in: 1...86_400) { settings.idleTimeout = Double(value) }
        if let value = try table.optionalInteger("countdown", in: 1...600) { settings.countdown = Double(value) }
        settings.greeting = try table.optionalString("greeting")
        settings.providers = try table.optionalStringArray("providers")?.map { ProviderID($0) }
        if let name = try table.optionalString("operator_key") {
            settings.operatorKey = try operatorKey(named: name, table: table)
        }
        settings.rememberLast = try table.optionalBool("remember_last") ?? false
        if let power = try table.optionalTable("power") { settings.power = try self.power(power) }
        settings.command = try command(table)
        return settings
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
    /// (`^O` too); a key the chooser already uses is refused.
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
        if let taken = KioskSettings.operatorKeyTaken(key) {
            throw table.error(key: "operator_key", "\"\(name.displaySafe)\" \(taken); choose another key")
        }
        return key
    }
}
