import ScreenKit
import StationConfig
import SwitchboardCore
import TerminalUI

/// The station's own key tables, for its dialogs.
public enum StationBindings {
    /// The operator PIN; digits are typed into it.
    public static let operatorPIN = KeyMap<DialogCommand>([
        KeyBinding([.enter], .confirm, label: "unlock", help: "Check the operator PIN"),
        KeyBinding([.backspace, .delete], .erase, label: "erase", help: "Erase the last digit"),
        KeyBinding([.escape], .cancel, label: "cancel", help: "Back to the station"),
    ], typing: .type)

    public static let operatorMenu = KeyMap<DialogCommand>([
        KeyBinding([.enter], .confirm, label: "choose", help: "Do what the selected line says"),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Move down", inKeyBar: false),
        KeyBinding([.escape], .cancel, label: "back", help: "Back to the station"),
    ])

    /// Before a station reboots or powers off.
    public static let confirmPower = KeyMap<DialogCommand>([
        KeyBinding([.character("y"), .enter], .confirm, label: "yes", help: "Run the command"),
        KeyBinding([.character("n"), .escape], .cancel, label: "no", help: "Back to the operator menu"),
    ])
}

/// The operator at the station: the operator key opens the operator PIN,
/// the right one the operator menu (leave kiosk mode, sign the session out,
/// disconnect, reboot, power off).
extension Station {
    /// The key table of the station's dialog, if one is open.
    public var stationDialogKeys: KeyMap<DialogCommand>? {
        switch stationDialog {
        case .operatorPIN(let field): field.isLocked(at: chooser.now) ? PINField.lockedKeys : StationBindings.operatorPIN
        case .operatorMenu: StationBindings.operatorMenu
        case .confirmPower: StationBindings.confirmPower
        case nil: nil
        }
    }

    /// A key while the station's dialog is open: through its table, else
    /// the keys that work everywhere (which a station refuses). A command
    /// that cannot act now says why, as the chooser's do.
    mutating func stationDialogKey(_ key: Key) -> [StationEffect] {
        // Too small to show the dialog: no key acts on what nobody can see.
        guard ScreenLayout(chooser.size) != nil else { return [] }
        guard let keys = stationDialogKeys, let command = keys.command(for: key) else {
            if let command = Bindings.everywhere.command(for: key), let why = chooser.unavailable(command) { chooser.notify(why.reason, .info) }
            return []
        }
        if let why = chooser.unavailable(command) {
            chooser.notify(why.reason, .info)
            return []
        }
        switch stationDialog {
        case .operatorPIN(var field):
            switch field.handle(command, key: key, at: chooser.now) {
            case .edited: stationDialog = .operatorPIN(field)
            case .submit(let digits):
                stationDialog = .operatorPIN(field)
                return [.checkOperatorPIN(digits)]
            case .close: stationDialog = nil
            case .cancelCheck:
                stationDialog = nil
                return [.chooser(.cancelPINCheck)]
            case .none: break
            }
        case .operatorMenu(let selection):
            return operatorCommand(command, selection: selection)
        case .confirmPower(let choice):
            return confirmPowerCommand(command, choice: choice)
        case nil:
            break
        }
        return []
    }

    /// The store's answer to the operator PIN: the operator menu, or the
    /// dialog again with what the try found.
    mutating func operatorPINChecked(_ check: PINCheck) {
        guard case .operatorPIN(var field) = stationDialog, field.checking else { return }
        switch check {
        case .accepted: stationDialog = .operatorMenu(selection: 0)
        case .failed: stationDialog = nil
        case .wrong, .locked:
            field.checked(check)
            stationDialog = .operatorPIN(field)
        }
    }

    /// The operator menu's lines: reboot and power off only when configured.
    public var operatorChoices: [OperatorChoice] {
        let power = own?.settings.power ?? StationPower()
        return OperatorChoice.allCases.filter { choice in
            choice != .reboot && choice != .powerOff || power.command(for: choice) != nil
        }
    }

    /// Carries out the operator's choice in the operator menu.
    private mutating func operatorCommand(_ command: DialogCommand, selection: Int) -> [StationEffect] {
        let choices = operatorChoices
        switch command {
        case .up: stationDialog = .operatorMenu(selection: max(0, selection - 1))
        case .down: stationDialog = .operatorMenu(selection: min(choices.count - 1, selection + 1))
        case .cancel: stationDialog = nil
        case .confirm:
            stationDialog = nil
            switch choices[min(selection, choices.count - 1)] {
            case .leaveKiosk:
                own = nil
                chooser.accounts.byName = false
                chooser.surround = ChooserSurround()
                chooser.notify("Kiosk mode is off until the next start: every key but Ctrl-Z works again.", .warning)
                // The list by use comes from the store.
                return [.chooser(.reload)]
            case .signOut:
                guard chooser.active != .anonymous else { return chooser.signOut().map(StationEffect.chooser) }
                return [.chooser(.signOut(.operatorMenu))]
            case .disconnect:
                guard let account = chooser.accounts.account(at: chooser.accounts.selection), !account.identities.isEmpty else {
                    chooser.notify("Select an account first.", .info)
                    return []
                }
                chooser.dialog = .disconnect(DisconnectDialog(account: account, byOperator: true))
            case .reboot, .powerOff:
                stationDialog = .confirmPower(choices[min(selection, choices.count - 1)])
            case .back:
                break
            }
        default: break
        }
        return []
    }

    /// Carries out the operator's answer to "Reboot the station?" (or power off).
    private mutating func confirmPowerCommand(_ command: DialogCommand, choice: OperatorChoice) -> [StationEffect] {
        switch command {
        case .confirm:
            stationDialog = nil
            guard let program = own?.settings.power.command(for: choice) else { return [] }
            return [.power(choice, command: program)]
        case .cancel:
            stationDialog = .operatorMenu(selection: operatorChoices.firstIndex(of: choice) ?? 0)
        default: break
        }
        return []
    }

    /// A station command ended: a failure is told, with why.
    mutating func powerCommandRan(_ choice: OperatorChoice, _ outcome: CommandOutcome) {
        let doing = choice == .reboot ? "reboot" : "power off"
        switch outcome {
        case .succeeded: chooser.notify("The station will \(doing) now.", .info)
        case .failed(let why): chooser.notify("Could not \(doing) the station: \(why)", .error)
        }
    }
}
