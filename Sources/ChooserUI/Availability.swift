import ScreenKit
import TerminalUI

extension AppState {
    /// Why the main screen's `command` cannot act now; nil when it can.
    public func unavailable(_ command: Command) -> Unavailable? {
        if surround.locked.contains(command) { return surround.lockedReason }
        if let refused = surround.writesRefused, Self.changesTheStore.contains(command) { return refused }
        if storeOffline != nil, Self.changesTheStore.contains(command) { return .offline }
        switch command {
        case .link where active == .anonymous:
            return Unavailable(reason: "Linking adds an identity to the active account: switch to one first.", hidden: false)
        case .favourite where active == .anonymous:
            return Unavailable(reason: "Favourites belong to a person: switch to an account first.", hidden: false)
        case .signOut where active == .anonymous:
            return Unavailable(reason: "Nobody is signed in to this session.", hidden: false)
        case .disconnect where accounts.account(at: accounts.selection) == nil:
            return Unavailable(reason: "Select an account to disconnect one of its identities.", hidden: false)
        default:
            return nil
        }
    }

    /// Why a dialog's `command` cannot act now; nil when it can.
    public func unavailable(_ command: DialogCommand) -> Unavailable? {
        if surround.lockedInDialogs.contains(command) { return surround.lockedReason }
        if let refused = surround.writesRefused, Self.dialogChangesTheStore.contains(command) { return refused }
        if storeOffline != nil, Self.dialogChangesTheStore.contains(command) { return .offline }
        return nil
    }

    /// The main screen's commands that write to the store: none is offered while it is offline.
    static let changesTheStore: Set<Command> = [.select, .add, .link, .signOut, .disconnect, .favourite]
    /// A dialog's commands that write to the store (a PIN's, a conflict's, a disconnect's answer).
    static let dialogChangesTheStore: Set<DialogCommand> = [.confirm, .merge, .switchAccount, .retry]

    /// The key bar for the table in force: hidden bindings left out,
    /// unavailable ones dimmed.
    public var keyBar: [KeyBarItem] {
        if let keys = dialogKeys { return keyBar(keys.bindings, unavailable: unavailable) }
        return keyBar(Bindings.main.bindings, unavailable: unavailable)
    }

    func keyBar<C>(_ bindings: [KeyBinding<C>], unavailable: (C) -> Unavailable?) -> [KeyBarItem] {
        bindings.filter(\.inKeyBar).compactMap { binding in
            let why = unavailable(binding.command)
            if why?.hidden == true { return nil }
            return KeyBarItem(key: binding.keys.first?.description ?? "", label: binding.label, available: why == nil)
        }
    }

    /// The bindings help lists from `bindings`: all but the hidden ones.
    func listed(_ bindings: [KeyBinding<Command>]) -> [KeyBinding<Command>] {
        bindings.filter { unavailable($0.command)?.hidden != true }
    }

    /// As `listed(_:)`, for a dialog's table.
    func listed(_ bindings: [KeyBinding<DialogCommand>]) -> [KeyBinding<DialogCommand>] {
        bindings.filter { unavailable($0.command)?.hidden != true }
    }
}
