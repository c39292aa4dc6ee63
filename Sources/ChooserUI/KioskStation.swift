import ScreenKit
import StationSettings
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

extension KioskSettings {
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

/// How a station command (reboot, power off) went.
public enum CommandOutcome: Hashable, Sendable {
    /// It ran and exited with status 0.
    case succeeded
    /// It could not start, exited with a failure status or was killed; why, for a toast.
    case failed(String)
}

extension AppState {
    /// The operator menu's lines: reboot and power off only when configured.
    public var operatorChoices: [OperatorChoice] {
        let power = kiosk?.settings.power ?? StationPower()
        return OperatorChoice.allCases.filter { choice in
            choice != .reboot && choice != .powerOff || power.command(for: choice) != nil
        }
    }

    /// The top bar's clock, HH:MM in local time, on a station with a clock.
    public var kioskClockText: String? {
        kiosk?.clock?.text(at: now)
    }

    /// When the top bar's clock next changes.
    var nextClockMinute: Moment? { kiosk?.clock?.nextMinute(after: now) }

    /// Where a resting station's selection is: the remembered person's row,
    /// else the first.
    var kioskHomeSelection: Int {
        guard let id = kiosk?.remembered, accounts.filter.isEmpty, let index = accounts.itemIndex(of: id) else { return 0 }
        return index
    }

    /// The store says who this session last acted as (`remember_last`):
    /// the list rests on them, as soon as it holds them.
    mutating func remember(_ id: AccountID?) {
        guard var kiosk, kiosk.settings.rememberLast else { return }
        kiosk.remembered = id
        kiosk.preselectPending = id != nil
        self.kiosk = kiosk
        kioskLoaded()
    }

    /// The accounts were read again: the person now active is the one to
    /// remember; a pending preselection happens once the list holds them.
    mutating func kioskLoaded() {
        guard var kiosk, kiosk.settings.rememberLast else { return }
        if let id = active.id { kiosk.remembered = id }
        self.kiosk = kiosk
        guard kiosk.preselectPending, dialog == nil, accounts.filter.isEmpty, let id = kiosk.remembered,
            accounts.itemIndex(of: id) != nil
        else { return }
        self.kiosk?.preselectPending = false
        accounts.selection = kioskHomeSelection
        clampAll()
    }

    /// Carries out the operator's answer to "Reboot the station?" (or power off).
    mutating func confirmPowerCommand(_ command: DialogCommand, choice: OperatorChoice) -> [Effect] {
        switch command {
        case .confirm:
            dialog = nil
            guard let program = kiosk?.settings.power.command(for: choice) else { return [] }
            return [.power(choice, command: program)]
        case .cancel:
            dialog = .operatorMenu(selection: operatorChoices.firstIndex(of: choice) ?? 0)
        default: break
        }
        return []
    }

    /// A station command ended: a failure is told, with why.
    mutating func powerCommandRan(_ choice: OperatorChoice, _ outcome: CommandOutcome) {
        let doing = choice == .reboot ? "reboot" : "power off"
        switch outcome {
        case .succeeded: notify("The station will \(doing) now.", .info)
        case .failed(let why): notify("Could not \(doing) the station: \(why)", .error)
        }
    }
}

/// Asks before the operator reboots or powers off the station.
enum ConfirmPowerView {
    static func draw(_ choice: OperatorChoice, state: AppState, into buffer: inout Buffer) {
        let theme = state.theme
        let size = Size(width: min(56, state.size.width - 4), height: min(state.size.height - 2, 7))
        let inner = DialogFrame.draw(title: "\(choice.rawValue)?", size: size, state: state, into: &buffer)
        let what = choice == .reboot ? "restarts" : "switches off"
        // Each argument quoted when it holds a space or a quote, so what runs reads as one.
        let command = (state.kiosk?.settings.power.command(for: choice) ?? []).map { argument in
            argument.isEmpty || argument.contains(where: { " \t'\"\\;&|$".contains($0) })
                ? "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" : argument
        }.joined(separator: " ").displaySafe
        let y = DialogFrame.paragraph(
            "This \(what) the station for everyone using it.", in: inner, y: inner.y + 1, style: theme[.text], into: &buffer)
        DialogFrame.paragraph("Runs: \(command)", in: inner, y: y + 1, style: theme[.muted], into: &buffer)
    }
}
