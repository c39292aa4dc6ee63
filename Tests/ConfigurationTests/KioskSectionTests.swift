import ChooserUI
import ConfigFile
import Configuration
import StationConfig
import SwitchboardCore
import TerminalUI
import Testing

@Suite("Configuration: [kiosk]")
struct KioskSectionTests {
    static func kiosk(_ text: String) throws -> StationSettings { try read(text).kiosk }

    @Test("no table, or an empty one: the defaults")
    func defaults() throws {
        #expect(try Self.kiosk("") == StationSettings())
        let empty = try Self.kiosk("[kiosk]\n")
        #expect(empty == StationSettings())
        #expect(empty.idleTimeout == 120 && empty.countdown == 15 && empty.greeting == nil && empty.providers == nil)
        #expect(empty.operatorKey == .function(12) && !empty.rememberLast && empty.power == StationPower() && empty.command == nil)
    }

    @Test("idle_timeout, countdown, greeting and providers")
    func values() throws {
        let parsed = try Self.kiosk("[kiosk]\nidle_timeout = 30\ncountdown = 5\ngreeting = \"Hi\"\nproviders = [\"demo\"]\n")
        #expect(parsed == StationSettings(idleTimeout: 30, countdown: 5, greeting: "Hi", providers: ["demo"]))
    }

    @Test("operator_key, remember_last and power: values read")
    func station() throws {
        let parsed = try Self.kiosk("""
            [kiosk]
            operator_key = "f5"
            remember_last = true
            power = { reboot = ["systemctl", "reboot"], poweroff = ["systemctl", "poweroff"] }
            """)
        #expect(parsed.operatorKey == .function(5) && parsed.rememberLast)
        #expect(parsed.power == StationPower(reboot: ["systemctl", "reboot"], powerOff: ["systemctl", "poweroff"]))
        for (name, key) in [("ctrl-o", Key.control("o")), ("Ctrl+O", .control("o")), ("^x", .control("x")), ("F1", .function(1)), ("c-g", .control("g"))] {
            #expect(try Self.kiosk("[kiosk]\noperator_key = \"\(name)\"\n").operatorKey == key, "\(name)")
        }
        let onlyReboot = try Self.kiosk("[kiosk]\n[kiosk.power]\nreboot = [\"true\"]\n")
        #expect(onlyReboot.power == StationPower(reboot: ["true"]))
    }

    @Test("command: an array of strings naming a program")
    func command() throws {
        #expect(try Self.kiosk("[kiosk]\ncommand = [\"bash\", \"--login\"]\n").command == ["bash", "--login"])
        #expect(try Self.kiosk("[kiosk]\nidle_timeout = 5\n").command == nil)
    }

    @Test("bad values are refused with the file, line and key; keys the chooser uses are named as taken", arguments: [
        ("[kiosk]\nidle_timout = 30\n", "config.toml:2: kiosk.idle_timout: unknown key (did you mean \"idle_timeout\"?)"),
        ("[kiosk]\nidle_timeout = 0\n", "config.toml:2: kiosk.idle_timeout: expected an integer from 1 to 86400, found 0"),
        ("[kiosk]\ncountdown = 601\n", "config.toml:2: kiosk.countdown: expected an integer from 1 to 600, found 601"),
        ("[kiosk]\ngreeting = 3\n", "config.toml:2: kiosk.greeting: expected a string, found an integer"),
        ("[kiosk]\nproviders = \"demo\"\n", "config.toml:2: kiosk.providers: expected an array, found a string"),
        ("[kiosk]\n\noperator_key = \"F13\"\n", "config.toml:3: kiosk.operator_key: expected F1 to F12 or ctrl- and a letter"),
        ("[kiosk]\noperator_key = \"ctrl-c\"\n", "config.toml:2: kiosk.operator_key: \"ctrl-c\" is already the chooser's key for quit; choose another key"),
        ("[kiosk]\noperator_key = \"ctrl-z\"\n", "config.toml:2: kiosk.operator_key: \"ctrl-z\" is already the chooser's key for suspend; choose another key"),
        ("[kiosk]\noperator_key = \"ctrl-m\"\n", "config.toml:2: kiosk.operator_key: \"ctrl-m\" cannot be told apart from Backspace, Tab or Enter"),
        ("[kiosk]\noperator_key = \"q\"\n", "config.toml:2: kiosk.operator_key: expected F1 to F12"),
        ("[kiosk]\noperator_key = 12\n", "config.toml:2: kiosk.operator_key: expected a string, found an integer"),
        ("[kiosk]\nremember_last = \"yes\"\n", "config.toml:2: kiosk.remember_last: expected a boolean"),
        ("[kiosk]\nremember = true\n", "config.toml:2: kiosk.remember: unknown key ("),
        ("[kiosk]\npower = { reboot = [] }\n", "config.toml:2: kiosk.power.reboot: expected a program and its arguments"),
        ("[kiosk]\npower = { reboot = [\"\"] }\n", "config.toml:2: kiosk.power.reboot: expected a program and its arguments"),
        ("[kiosk]\npower = { poweroff = [\"systemctl\", 1] }\n", "config.toml:2: kiosk.power.poweroff[1]: expected a string, found an integer"),
        ("[kiosk]\npower = { shutdown = [\"halt\"] }\n", "config.toml:2: kiosk.power.shutdown: unknown key"),
        ("[kiosk]\npower = \"systemctl reboot\"\n", "config.toml:2: kiosk.power: expected a table, found a string"),
        ("[kiosk]\ncommand = []\n", "config.toml:2: kiosk.command: name the program"),
        ("[kiosk]\ncommand = [\"\"]\n", "config.toml:2: kiosk.command: name the program"),
        ("[kiosk]\ncommand = \"bash\"\n", "config.toml:2: kiosk.command: expected an array"),
        ("[kiosk]\ncommand = [\"a\\u0000b\"]\n", "config.toml:2: kiosk.command: a NUL character cannot be passed to a program"),
        ("kiosk = true\n", "config.toml:1: kiosk: expected a table, found a boolean"),
    ])
    func badValues(text: String, expected: String) {
        let said: String
        do {
            // As `switchboard kiosk` reads the file: the chooser's keys checked after.
            try read(text).checkOperatorKey(taken: StationSettings.operatorKeyTaken)
            said = "no error"
        } catch {
            said = error.description
        }
        #expect(said.hasPrefix(expected), "\(said)")
    }

    @Test("the operator key is checked against the keys it is given, only when asked: reading the file needs nothing of the chooser")
    func operatorKeyCheckedWhenAsked() throws {
        let configuration = try read("[kiosk]\n\noperator_key = \"Ctrl-Q\"\n")
        #expect(configuration.kiosk.operatorKey == .control("q"))
        try configuration.checkOperatorKey { _ in nil }
        #expect(throws: ConfigError(file: "config.toml", line: 3, key: "kiosk.operator_key", message: "\"Ctrl-Q\" is taken; choose another key")) {
            try configuration.checkOperatorKey { $0 == .control("q") ? "is taken" : nil }
        }
        try read("[kiosk]\nidle_timeout = 30\n").checkOperatorKey { _ in "is taken" }
    }
}
