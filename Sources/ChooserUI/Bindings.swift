import ScreenKit
import TerminalUI

/// What a key does on the main screen.
public enum Command: Hashable, Sendable {
    case select, add, link, signOut, disconnect, filter, favourite, theme, help, quit, suspend
    case up, down, pageUp, pageDown, top, bottom, switchPane, clearFilter
}

/// The key tables. Each one dispatches keys and also generates the key bar
/// and the help overlay, so what is shown is what works.
public enum Bindings {
    /// Keys that work on every screen, a dialog's too, unless its table
    /// binds them: quitting and suspending, as in every terminal program.
    public static let everywhere = KeyMap<Command>([
        KeyBinding([.control("c"), .control("\\")], .quit, label: "quit", help: "Quit, from anywhere", inKeyBar: false),
        KeyBinding([.control("z")], .suspend, label: "suspend", help: "Suspend to the shell; fg brings it back", inKeyBar: false),
    ])

    public static let main = KeyMap<Command>(mainOwn + everywhere.bindings)

    private static let mainOwn: [KeyBinding<Command>] = [
        KeyBinding([.enter], .select, label: "switch", help: "Switch to the selected account, or add one, or go anonymous"),
        KeyBinding([.character("a")], .add, label: "add", help: "Add an account: sign in with a provider"),
        KeyBinding([.character("l")], .link, label: "link", help: "Link another identity to the active account"),
        KeyBinding([.character("s")], .signOut, label: "sign out", help: "Sign out of this session; accounts stay available"),
        KeyBinding([.character("d")], .disconnect, label: "disconnect", help: "Disconnect an identity of the selected account (asks first)"),
        KeyBinding([.character("/")], .filter, label: "filter", help: "Filter accounts by name, email or provider as you type"),
        KeyBinding([.character("f")], .favourite, label: "star", help: "Star or unstar the selected show for the active person"),
        KeyBinding([.character("t")], .theme, label: "theme", help: "Cycle colour themes"),
        KeyBinding([.character("?")], .help, label: "help", help: "Show this help"),
        KeyBinding([.character("q")], .quit, label: "quit", help: "Quit"),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Move down", inKeyBar: false),
        KeyBinding([.pageUp], .pageUp, label: "page up", help: "Move a page up", inKeyBar: false),
        KeyBinding([.pageDown], .pageDown, label: "page down", help: "Move a page down", inKeyBar: false),
        KeyBinding([.home, .character("g")], .top, label: "top", help: "Go to the first row", inKeyBar: false),
        KeyBinding([.end, .character("G")], .bottom, label: "bottom", help: "Go to the last row", inKeyBar: false),
        KeyBinding([.escape], .clearFilter, label: "clear filter", help: "Clear the filter", inKeyBar: false),
        KeyBinding([.tab, .backTab], .switchPane, label: "pane", help: "Move between the accounts and the guide", inKeyBar: false),
    ]

    /// The first and last row of a dialog's short list, as in the lists:
    /// the page keys go as far, since the whole list shows.
    private static let listEnds: [KeyBinding<DialogCommand>] = [
        KeyBinding([.home, .character("g"), .pageUp], .pageUp, label: "top", help: "Go to the first row", inKeyBar: false),
        KeyBinding([.end, .character("G"), .pageDown], .pageDown, label: "bottom", help: "Go to the last row", inKeyBar: false),
    ]

    public static let chooseProvider = KeyMap<DialogCommand>([
        KeyBinding([.enter], .confirm, label: "sign in", help: "Sign in with the selected provider"),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Move down", inKeyBar: false),
        KeyBinding([.escape, .character("q")], .cancel, label: "cancel", help: "Close"),
    ] + listEnds)

    public static let continueOrSignIn = KeyMap<DialogCommand>([
        KeyBinding([.enter], .confirm, label: "choose", help: "Continue as the selected person, or sign in with a new code"),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Move down", inKeyBar: false),
        KeyBinding([.escape, .character("q")], .cancel, label: "cancel", help: "Close"),
    ] + listEnds)

    /// The sign-in's inspector, in every phase that talks to the provider.
    private static let inspector = KeyBinding<DialogCommand>(
        [.character("i")], .inspect, label: "inspector", help: "Show or hide each exchange with the provider, as it happens")

    /// Scrolling the inspector while it shows: up to older exchanges, down to the newest.
    private static let inspectorScroll: [KeyBinding<DialogCommand>] = [
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Scroll the inspector up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Scroll the inspector down", inKeyBar: false),
        KeyBinding([.pageUp], .pageUp, label: "page up", help: "Scroll the inspector a page up", inKeyBar: false),
        KeyBinding([.pageDown], .pageDown, label: "page down", help: "Scroll the inspector a page down", inKeyBar: false),
    ]

    public static let requesting = KeyMap<DialogCommand>([
        KeyBinding([.escape], .cancel, label: "cancel", help: "Cancel the sign-in"),
        inspector,
    ] + inspectorScroll)

    public static let waiting = KeyMap<DialogCommand>([
        KeyBinding([.character("c")], .copy, label: "copy code", help: "Copy the code to the clipboard"),
        KeyBinding([.character("o")], .open, label: "open browser", help: "Open the page in the browser"),
        inspector,
        KeyBinding([.escape], .cancel, label: "cancel", help: "Cancel the sign-in"),
    ] + inspectorScroll)

    public static let finished = KeyMap<DialogCommand>([
        KeyBinding([.enter, .escape, .character("q")], .close, label: "close", help: "Close"),
        inspector,
    ] + inspectorScroll)

    public static let finishedRetry = KeyMap<DialogCommand>([
        KeyBinding([.character("r")], .retry, label: "try again", help: "Start again with a new code (after a denial or expiry)"),
        KeyBinding([.enter, .escape, .character("q")], .close, label: "close", help: "Close"),
        inspector,
    ] + inspectorScroll)

    public static let conflict = KeyMap<DialogCommand>([
        KeyBinding([.character("m")], .merge, label: "merge", help: "Merge the other account into the active one"),
        KeyBinding([.character("s")], .switchAccount, label: "switch", help: "Switch to the other account"),
        KeyBinding([.character("c"), .escape], .cancel, label: "cancel", help: "Stay as you are"),
        KeyBinding([.enter], .confirm, label: "choose", help: "Take the selected choice", inKeyBar: false),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Move down", inKeyBar: false),
    ])

    /// The conflict table without merge, when merging is not allowed.
    public static let conflictNoMerge = KeyMap<DialogCommand>(conflict.bindings.filter { $0.command != .merge })

    public static let disconnect = KeyMap<DialogCommand>([
        KeyBinding([.character("y"), .enter], .confirm, label: "disconnect", help: "Disconnect the selected identity"),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Move down", inKeyBar: false),
        KeyBinding([.character("n"), .escape], .cancel, label: "keep", help: "Keep it"),
    ])

    /// Switching to an account whose identities were all revoked.
    public static let signInAgain = KeyMap<DialogCommand>([
        KeyBinding([.character("r")], .retry, label: "sign in again", help: "Switch, then sign in again with the provider"),
        KeyBinding([.character("s")], .switchAccount, label: "switch anyway", help: "Switch with nothing to use until a sign-in"),
        KeyBinding([.character("c"), .escape], .cancel, label: "cancel", help: "Stay as you are"),
        KeyBinding([.enter], .confirm, label: "choose", help: "Take the selected choice", inKeyBar: false),
        KeyBinding([.up, .character("k")], .up, label: "up", help: "Move up", inKeyBar: false),
        KeyBinding([.down, .character("j")], .down, label: "down", help: "Move down", inKeyBar: false),
    ])

    /// The PIN dialog; digits are typed into it (other characters count for nothing).
    public static let pin = KeyMap<DialogCommand>([
        KeyBinding([.enter], .confirm, label: "unlock", help: "Check the PIN and switch"),
        KeyBinding([.backspace, .delete], .erase, label: "erase", help: "Erase the last digit"),
        KeyBinding([.escape], .cancel, label: "cancel", help: "Close without switching"),
    ], typing: .type)
}
