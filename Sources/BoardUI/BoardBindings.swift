import SwitchboardCore
import ScreenKit
import TerminalUI

/// The board's key tables: they dispatch its keys and make its key bar and
/// help, as the chooser's do. The filter's and help's tables are ScreenKit's, the chooser's too.
public enum BoardBindings {
    public static let main = KeyMap<BoardCommand>([
        KeyBinding([.character("/")], .filter, label: "filter", help: "Filter stations by name, person or state as you type"),
        KeyBinding([.character("s")], .sort, label: "sort", help: "Sort by station, longest idle, or state (offline first)"),
        KeyBinding([.character("o")], .signOut, label: "sign out", help: "Sign the station's session out (operator PIN, asks first)"),
        KeyBinding([.character("r")], .resetPIN, label: "reset PIN", help: "Clear the wrong PINs of the person there (operator PIN)"),
        KeyBinding([.character("x")], .disconnect, label: "disconnect", help: "Disconnect one identity of theirs everywhere (operator PIN)"),
        KeyBinding([.character("t")], .theme, label: "theme", help: "Cycle colour themes"),
        KeyBinding([.character("?")], .help, label: "help", help: "Show this help"),
        KeyBinding([.character("q"), .control("c"), .control("\\")], .quit, label: "quit", help: "Quit"),
        KeyBinding([.control("z")], .suspend, label: "suspend", help: "Suspend to the shell; fg brings it back", inKeyBar: false),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Move down", inKeyBar: false),
        KeyBinding([.pageUp], .pageUp, label: "page up", help: "Move a page up", inKeyBar: false),
        KeyBinding([.pageDown], .pageDown, label: "page down", help: "Move a page down", inKeyBar: false),
        KeyBinding([.home, .character("g")], .top, label: "top", help: "Go to the first station", inKeyBar: false),
        KeyBinding([.end, .character("G")], .bottom, label: "bottom", help: "Go to the last station", inKeyBar: false),
        KeyBinding([.escape], .clearFilter, label: "clear filter", help: "Clear the filter", inKeyBar: false),
    ])

    /// Before an operator action.
    public static let confirm = KeyMap<DialogCommand>([
        KeyBinding([.character("y"), .enter], .confirm, label: "yes", help: "Do it"),
        KeyBinding([.character("n"), .escape], .cancel, label: "no", help: "Back to the board"),
    ])

    /// Choosing the identity to disconnect.
    public static let chooseIdentity = KeyMap<DialogCommand>([
        KeyBinding([.enter], .confirm, label: "choose", help: "Disconnect the identity selected (asks first)"),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Move down", inKeyBar: false),
        KeyBinding([.escape, .character("n")], .cancel, label: "back", help: "Back to the board"),
    ])

    /// The operator PIN: digits are typed into it.
    public static let pin = KeyMap<DialogCommand>([
        KeyBinding([.enter], .confirm, label: "unlock", help: "Check the operator PIN"),
        KeyBinding([.backspace, .delete], .erase, label: "erase", help: "Erase the last digit"),
        KeyBinding([.escape], .cancel, label: "cancel", help: "Back to the board"),
    ], typing: .type)
}

extension BoardState {
    /// The table in force for a dialog or the filter; nil on the main screen.
    public var dialogKeys: KeyMap<DialogCommand>? {
        switch dialog {
        case .help: return HelpPanel.keys
        case .pin(let field, _): return field.isLocked(at: now) ? PINField.lockedKeys : BoardBindings.pin
        case .confirm: return BoardBindings.confirm
        case .chooseIdentity: return BoardBindings.chooseIdentity
        case nil: return isFiltering ? FilterLine.keys : nil
        }
    }

    /// Why `command` cannot act now; nil when it can.
    public func unavailable(_ command: BoardCommand) -> Unavailable? {
        let operatorAction: Bool = [.signOut, .resetPIN, .disconnect].contains(command)
        if operatorAction, storeOffline != nil { return .offline }
        if operatorAction, selectedStation == nil { return Unavailable(reason: "Select a station first.", hidden: false) }
        switch command {
        case .signOut, .disconnect:
            if selectedStation?.active == nil { return Unavailable(reason: "Nobody is signed in at this station.", hidden: false) }
        case .resetPIN:
            if selectedStation?.active == nil, lockedAccount == nil {
                return Unavailable(reason: "Nobody is signed in or locked out at this station.", hidden: false)
            }
        default: break
        }
        return nil
    }

    /// The account a reset of wrong PINs is for at the selected station:
    /// while it is locked out, the one its newest wrong PIN was for; else the one active there.
    var lockedAccount: (id: AccountID, name: String)? {
        guard let station = selectedStation else { return nil }
        if case .lockedOut = status(station), eventsOf == station.key,
           let wrong = events.last(where: { $0.kind == "wrongPIN" }), let id = wrong.account {
            return (id, wrong.who)
        }
        return station.active.map { ($0, station.who) }
    }

    /// The key bar for the table in force: unavailable commands dimmed.
    public var keyBar: [KeyBarItem] {
        if let keys = dialogKeys {
            return keys.bindings.filter(\.inKeyBar).map { KeyBarItem(key: $0.keys.first?.description ?? "", label: $0.label) }
        }
        return BoardBindings.main.bindings.filter(\.inKeyBar).map { binding in
            KeyBarItem(key: binding.keys.first?.description ?? "", label: binding.label, available: unavailable(binding.command) == nil)
        }
    }
}
