import ScreenKit
import SwitchboardCore
import TerminalUI

/// Merge, switch or cancel, when a signed-in identity belongs to another account.
enum ConflictDialogView {
    static func draw(_ dialog: ConflictDialog, state: AppState, into buffer: inout Buffer) {
        let theme = state.theme
        let owner = dialog.ownerName.displaySafe, active = dialog.activeName.displaySafe
        // Wide enough for its longest choice where the screen allows (two accounts of one name carry their numbers).
        let longest = "▸ m  Merge \(owner) into \(active)".displayWidth + 4
        let size = Size(width: min(max(66, longest), state.size.width - 4), height: min(state.size.height - 2, 14))
        let inner = DialogFrame.draw(title: "This identity has an account already", size: size, state: state, into: &buffer)
        var y = DialogFrame.paragraph(
            "Your \(dialog.providerName) identity belongs to \(owner), but \(active) is active here.",
            in: inner, y: inner.y + 1, style: theme[.text], into: &buffer) + 1
        for (index, choice) in dialog.choices.enumerated() where y < inner.maxY {
            let text = switch choice {
            case .merge: "m  Merge \(owner) into \(active)"
            case .switchAccount: "s  Switch to \(owner)"
            case .cancel: "c  Cancel: stay \(active)"
            }
            DialogFrame.choice(text, selected: index == dialog.selection, theme: theme, in: inner, y: y, into: &buffer)
            y += 1
        }
        if let note = dialog.mergeNote {
            DialogFrame.paragraph(note, in: inner, y: y + 1, style: theme[.muted], into: &buffer)
        }
    }
}

/// Asks which identity to disconnect, and says what that means.
enum DisconnectDialogView {
    static func draw(_ dialog: DisconnectDialog, state: AppState, into buffer: inout Buffer) {
        let theme = state.theme
        let identities = dialog.account.identities
        let size = Size(width: min(66, state.size.width - 4), height: min(state.size.height - 2, identities.count + 10))
        let inner = DialogFrame.draw(title: "Disconnect from \(dialog.account.name.displaySafe)?", size: size, state: state, into: &buffer)
        let y = IdentityList.draw(identities, selection: dialog.selection, theme: theme, in: inner, y: inner.y + 1, into: &buffer)
        let last = identities.count == 1
            ? "It is the account's only identity: the account and its favourites go too."
            : "The account keeps its other identities."
        DialogFrame.paragraph(
            "The provider is asked to revoke the token, and Switchboard forgets the identity. " + last,
            in: inner, y: y + 1, style: theme[.muted], into: &buffer)
    }
}

/// Every key, from the same tables that dispatch them; scrolled with the
/// arrows and the page keys when the terminal is too short for all of it.
enum HelpOverlay {
    /// The help's lines: the main keys, then the sign-in dialog's and the filter's.
    private static func lines(_ state: AppState) -> [HelpPanel.Line] {
        var lines = state.listed(Bindings.main.bindings).map { HelpPanel.Line.key($0.keyText, $0.help) }
        // The sign-in dialog's keys while it waits, then the one it adds after a denial or an expired code.
        let signIn = Bindings.waiting.bindings + Bindings.finishedRetry.bindings.filter { $0.command == .retry }
        for (title, bindings) in [("Sign-in dialog", signIn), ("Filter", FilterLine.keys.bindings)] {
            lines += [.blank, .title(title)] + state.listed(bindings).filter(\.inKeyBar).map { HelpPanel.Line.key($0.keyText, $0.help) }
        }
        return lines
    }

    /// How many lines show at once: the frame, a blank row above and one below left out.
    static func rowsShown(in state: AppState) -> Int { HelpPanel.rowsShown(lines: lines(state).count, screen: state.size) }

    /// How far the help can scroll.
    static func maxScroll(in state: AppState) -> Int { max(0, lines(state).count - rowsShown(in: state)) }

    static func draw(_ state: AppState, scroll: Int, into buffer: inout Buffer) {
        HelpPanel.draw(lines(state), scroll: scroll, theme: state.theme, screen: state.size, over: state.dialogArea, clearing: state.panesBehindDialogs, into: &buffer)
    }
}

/// Asks for an account's PIN: a dot per digit typed, what the last try
/// found, and the wait after too many wrong ones, counting down.
enum PINDialogView {
    static func draw(_ dialog: PINDialog, state: AppState, into buffer: inout Buffer) {
        let theme = state.theme
        let (title, text) = switch dialog.purpose {
        case .switchTo(let account):
            ("PIN for \(account.name.displaySafe)", "\(account.name.displaySafe) has a PIN. Type it to switch.")
        case .disconnect(let identity, let account, byOperator: false):
            ("PIN for \(account.name.displaySafe)",
             "\(account.name.displaySafe) has a PIN. Type it to disconnect \(account.label(of: identity).displaySafe).")
        case .disconnect(let identity, let account, byOperator: true):
            ("Operator", "\(account.name.displaySafe) has a PIN. Type the operator PIN to disconnect \(account.label(of: identity).displaySafe).")
        }
        let size = Size(width: min(52, state.size.width - 4), height: min(state.size.height - 2, 10))
        let inner = DialogFrame.draw(title: title, size: size, state: state, into: &buffer)
        let y = DialogFrame.paragraph(text, in: inner, y: inner.y + 1, style: theme[.text], into: &buffer) + 1
        dialog.field.draw(in: inner, y: y, theme: theme, now: state.now, into: &buffer)
    }
}

/// Sign in again, switch anyway, or cancel: for an account whose every
/// identity was revoked.
enum SignInAgainDialogView {
    static func draw(_ dialog: SignInAgainDialog, state: AppState, into buffer: inout Buffer) {
        let theme = state.theme
        let account = dialog.account, name = dialog.account.name.displaySafe
        let revoked = account.revokedIdentities.map { account.label(of: $0.identity).displaySafe }.joined(separator: ", ")
        let size = Size(width: min(66, state.size.width - 4), height: min(state.size.height - 2, 13))
        let inner = DialogFrame.draw(title: "Sign in again?", size: size, state: state, into: &buffer)
        var y = DialogFrame.paragraph(
            "\(name)'s sign-in was revoked (\(revoked)): nothing works for it until you sign in again.",
            in: inner, y: inner.y + 1, style: theme[.text], into: &buffer) + 1
        for (index, choice) in dialog.choices.enumerated() where y < inner.maxY {
            let text = switch choice {
            case .signIn: "r  Sign in again with \(dialog.provider.name.displaySafe)"
            case .switchAnyway: "s  Switch to \(name) anyway"
            case .cancel: "c  Cancel"
            }
            DialogFrame.choice(text, selected: index == dialog.selection, theme: theme, in: inner, y: y, into: &buffer)
            y += 1
        }
    }
}
