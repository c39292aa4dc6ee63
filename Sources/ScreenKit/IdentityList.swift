import SwitchboardCore
import TerminalUI

/// An account's identities, one a row, the selected one marked: to choose
/// one to disconnect, in the chooser and on the operator's board.
public enum IdentityList {
    /// Draws from row `y` of `inner`; returns the row after the last drawn.
    public static func draw(_ identities: [LinkedIdentity], selection: Int, theme: Theme, in inner: Rect, y top: Int, into buffer: inout Buffer) -> Int {
        var y = top
        for (index, identity) in identities.enumerated() where y < inner.maxY {
            DialogFrame.choice(row(identity, among: identities), selected: index == selection, theme: theme, in: inner, y: y, into: &buffer)
            y += 1
        }
        return y
    }

    /// "demo  ada@example.org"; where another identity of `identities` is
    /// at the same provider, its login or email comes after the provider
    /// ("github ada  Ada Lovelace"), and the label only when it says more.
    public static func row(_ identity: LinkedIdentity, among identities: [LinkedIdentity]) -> String {
        let name = IdentityNames.distinguishing(identities)[identity.identity]
        let head = identity.provider.rawValue + (name.map { " " + $0 } ?? "")
        let label = identity.label == name ? nil : identity.label
        return (head + (label.map { "  " + $0 } ?? "")).displaySafe
    }
}
