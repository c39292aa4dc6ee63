import ScreenKit
import StationConfig
import SwitchboardCore
import TerminalUI

// What people expect of a station beyond the locked chooser: a greeting
// from /etc/issue, a clock, the last person preselected, an operator key of
// its own, and reboot and power-off in the operator menu.

extension StationPower {
    /// The command for an operator choice, when one is configured.
    public func command(for choice: OperatorChoice) -> [String]? {
        switch choice {
        case .reboot: reboot
        case .powerOff: powerOff
        default: nil
        }
    }
}

extension StationSettings {
    /// Why `key` cannot be a station's operator key, or nil when it can:
    /// the chooser already uses it (every key a station refuses is one of
    /// the chooser's, in `Bindings.main`). The words
    /// follow the key's name, as in `"ctrl-c" is already the chooser's key for quit`.
    public static func operatorKeyTaken(_ key: Key) -> String? {
        if let binding = Bindings.main.bindings.first(where: { $0.keys.contains(key) }) {
            return "is already the chooser's key for \(binding.label)"
        }
        return nil
    }
}

/// The greeting a station takes from `/etc/issue` when `[kiosk] greeting`
/// is absent: its first line that is not empty once the getty escapes are
/// expanded or dropped, made safe for the terminal.
public enum IssueGreeting {
    /// What the escapes that name the machine expand to.
    public struct Context: Sendable {
        /// `\n`: the host's name.
        public var nodename: String
        /// `\l`: the terminal's name, such as `tty1`.
        public var tty: String
        /// `\s`, `\r`, `\m`, `\v`: the system's name, release, machine and version.
        public var sysname: String, release: String, machine: String, version: String

        /// What each escape expands to; empty ones leave nothing.
        public init(nodename: String = "", tty: String = "", sysname: String = "", release: String = "", machine: String = "", version: String = "") {
            self.nodename = nodename
            self.tty = tty
            self.sysname = sysname
            self.release = release
            self.machine = machine
            self.version = version
        }
    }

    /// The greeting in `text` (an issue file's contents); nil when no line
    /// has anything to show.
    public static func greeting(in text: String, context: Context) -> String? {
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let shown = expand(String(line), context: context).displaySafe
            let words = shown.split(whereSeparator: \.isWhitespace)
            if !words.isEmpty { return words.joined(separator: " ") }
        }
        return nil
    }

    /// One line with its escapes expanded: the ones naming the machine and
    /// the terminal from `context`; `\e` as the escape character (so the
    /// colour sequence it starts is dropped whole later); `\\` as `\`;
    /// every other one, with its `{argument}`, dropped (the date and time
    /// too: the top bar has a clock).
    static func expand(_ line: String, context: Context) -> String {
        var result = ""
        var characters = line.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            guard character == "\\" else {
                result.append(character)
                continue
            }
            // A backslash at the end of the line stands for nothing.
            guard let escape = pending else { break }
            pending = characters.next()
            if pending == "{" {
                // An argument, as in \4{eth0} or \e{red}: the escape is dropped with it.
                while let next = pending, next != "}" { pending = characters.next() }
                pending = characters.next()
                continue
            }
            switch escape {
            case "n": result += context.nodename
            case "l": result += context.tty
            case "s": result += context.sysname
            case "r": result += context.release
            case "m": result += context.machine
            case "v": result += context.version
            case "e": result += "\u{1B}"
            case "\\": result += "\\"
            default: break
            }
        }
        return result
    }
}
