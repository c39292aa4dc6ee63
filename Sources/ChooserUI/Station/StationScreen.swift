import ScreenKit
import StationConfig
import SwitchboardCore
import TerminalUI

/// A station's screen: the chooser's, with the station's greeting, clock
/// and name warning in its top bar (through `ChooserSurround`), the
/// station's dialog over it, and the idle countdown over everything.
public enum StationScreen {
    public static func draw(_ station: Station) -> Buffer {
        let chooser = station.chooser
        var buffer = Screen.draw(
            chooser,
            layerDialog: station.stationDialog.map { dialog in { buffer in draw(dialog, station, into: &buffer) } },
            keyBar: station.stationDialogKeys.map { chooser.keyBar($0.bindings, unavailable: chooser.unavailable) })
        if ScreenLayout(chooser.size) != nil { IdleCountdown.draw(station, into: &buffer) }
        return buffer
    }

    private static func draw(_ dialog: StationDialog, _ station: Station, into buffer: inout Buffer) {
        switch dialog {
        case .operatorPIN(let field): OperatorPIN.draw(field, state: station.chooser, into: &buffer)
        case .operatorMenu(let selection): OperatorMenu.draw(selection: selection, choices: station.operatorChoices, state: station.chooser, into: &buffer)
        case .confirmPower(let choice): ConfirmPower.draw(choice, command: station.own?.settings.power.command(for: choice) ?? [], state: station.chooser, into: &buffer)
        }
    }

    /// The idle countdown, over everything: who will be signed out, how
    /// soon, and that any key stays.
    enum IdleCountdown {
        static func draw(_ station: Station, into buffer: inout Buffer) {
            guard let seconds = station.secondsLeft else { return }
            let state = station.chooser
            let who = state.active.account?.name.displaySafe ?? "This station"
            let inner = DialogFrame.draw(
                title: "Still there?", size: Size(width: min(56, state.size.width - 4), height: 6), state: state, into: &buffer)
            let lines = [
                "\(who) \(state.active.account == nil ? "goes back to its first screen" : "will be signed out") in \(seconds) s.",
                "Press any key to stay.",
            ]
            for (offset, line) in lines.enumerated() {
                buffer.write(line.truncated(toWidth: inner.width), x: inner.x, y: inner.y + 1 + offset, style: state.theme[offset == 0 ? .statusWarning : .text])
            }
        }
    }

    /// Asks for the operator PIN before the operator menu.
    enum OperatorPIN {
        static func draw(_ field: PINField, state: AppState, into buffer: inout Buffer) {
            let size = Size(width: min(52, state.size.width - 4), height: min(state.size.height - 2, 10))
            let inner = DialogFrame.draw(title: "Operator", size: size, state: state, into: &buffer)
            let y = DialogFrame.paragraph(
                "Type the operator PIN to open the operator menu.", in: inner, y: inner.y + 1, style: state.theme[.text], into: &buffer) + 1
            field.draw(in: inner, y: y, theme: state.theme, now: state.now, into: &buffer)
        }
    }

    /// The operator menu, after the operator PIN.
    enum OperatorMenu {
        static func draw(selection: Int, choices: [OperatorChoice], state: AppState, into buffer: inout Buffer) {
            let theme = state.theme
            let size = Size(width: min(60, state.size.width - 4), height: min(state.size.height - 2, choices.count + 4))
            let inner = DialogFrame.draw(title: "Operator", size: size, state: state, into: &buffer)
            for (index, choice) in choices.enumerated() {
                let y = inner.y + 1 + index
                guard y < inner.maxY else { break }
                DialogFrame.choice(choice.rawValue, selected: index == selection, bold: true, theme: theme, in: inner, y: y, into: &buffer)
            }
        }
    }

    /// Asks before the operator reboots or powers off the station.
    enum ConfirmPower {
        static func draw(_ choice: OperatorChoice, command program: [String], state: AppState, into buffer: inout Buffer) {
            let theme = state.theme
            let size = Size(width: min(56, state.size.width - 4), height: min(state.size.height - 2, 7))
            let inner = DialogFrame.draw(title: "\(choice.rawValue)?", size: size, state: state, into: &buffer)
            let what = choice == .reboot ? "restarts" : "switches off"
            // Each argument quoted when it holds a space or a quote, so what runs reads as one.
            let command = program.map { argument in
                argument.isEmpty || argument.contains(where: { " \t'\"\\;&|$".contains($0) })
                    ? "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" : argument
            }.joined(separator: " ").displaySafe
            let y = DialogFrame.paragraph(
                "This \(what) the station for everyone using it.", in: inner, y: inner.y + 1, style: theme[.text], into: &buffer)
            DialogFrame.paragraph("Runs: \(command)", in: inner, y: y + 1, style: theme[.muted], into: &buffer)
        }
    }
}

extension Station {
    /// Tells the chooser what the station asks of its screen and keys: the
    /// greeting, the clock, another machine holding the name, the keys a
    /// station refuses whoever asks.
    mutating func surround() {
        guard let own else { return }
        var surround = ChooserSurround()
        surround.title = own.settings.greeting
        surround.clock = own.clock?.text(at: chooser.now)
        if let taken = own.nameTaken {
            surround.warning = ["Station name in use elsewhere — waiting", "Name in use — waiting", "Name in use"]
            surround.writesRefused = .nameTaken(taken)
        } else if let skew = own.clockSkew {
            // The fleet's rules run by the server's clock; a wrong one here misleads only its own screen, but someone should fix it.
            surround.warning = [
                "Clock \(StationStatus.clockDistance(skew)) — set its time", "Clock \(Int(abs(skew).rounded())) s off", "Clock off",
            ]
        }
        // Quitting, suspending, the theme and disconnecting are not for whoever walks up; nor is opening a browser.
        surround.locked = [.quit, .suspend, .theme, .disconnect]
        surround.lockedInDialogs = [.open]
        surround.lockedReason = .stationLocked
        chooser.surround = surround
    }

    /// The top bar's clock, HH:MM in local time, on a station with a clock.
    public var clockText: String? { chooser.surround.clock }
}
