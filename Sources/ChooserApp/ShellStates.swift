import BoardUI
import ChooserUI
import SwitchboardCore
import TerminalUI

/// The chooser, with its station and tour layers, as the shell runs it.
extension AppState: ShellState {
    public static func tick(_ now: Moment) -> Action { .tick(now) }
    public static func input(_ event: InputEvent) -> Action { .input(event) }
    public static func isInput(_ action: Action) -> Bool { if case .input = action { true } else { false } }
    public static var terminate: Action { .terminate }
    public static func storeOffline(_ detail: String?) -> Action { .storeOffline(detail) }
    public static func storeWaiting(_ waiting: Bool) -> Action { .storeWaiting(waiting) }
}

/// The operator's board as the shell runs it.
extension BoardState: ShellState {
    public static func tick(_ now: Moment) -> BoardAction { .tick(now) }
    public static func input(_ event: InputEvent) -> BoardAction { .input(event) }
    public static func isInput(_ action: BoardAction) -> Bool { if case .input = action { true } else { false } }
    public static var terminate: BoardAction { .terminate }
    public static func storeOffline(_ detail: String?) -> BoardAction { .storeOffline(detail) }
    public static func storeWaiting(_ waiting: Bool) -> BoardAction { .storeWaiting(waiting) }
}
