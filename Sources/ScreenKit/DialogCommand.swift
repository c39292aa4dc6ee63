import TerminalUI

/// What a key does in a dialog or the filter.
public enum DialogCommand: Hashable, Sendable {
    case up, down, pageUp, pageDown, confirm, cancel, copy, open, retry, merge, switchAccount, close, erase
    /// Show or hide the sign-in's inspector.
    case inspect
    /// A character typed into the dialog's text field (the filter, a PIN).
    case type
}
