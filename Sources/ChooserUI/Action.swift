import ScreenKit
import SwitchboardCore
import TerminalUI

/// Everything that can happen to the chooser. Keys, ticks, store loads,
/// device-flow progress and bus events all arrive as one of these.
public enum Action: Sendable {
    /// A key, a mouse event or a resize.
    case input(InputEvent)
    /// A second passed (only while a countdown shows) or a toast ran out.
    case tick(Moment)
    /// A terminating signal arrived: quit.
    case terminate
    /// The loop has started, before the store is first read (a layer
    /// around the chooser may read what it needs then).
    case started
    /// The accounts and who is active, as read from the store (a list read
    /// again keeps the index it had, until `indexRead` brings a fresh one).
    case loaded(AccountList, active: ActiveAccount)
    /// Rows the pane wanted (`AppState.rowsWanted`), read from the store:
    /// by id, or, with `offset`, the list's positions from there.
    case rowsRead([Account], offset: Int?)
    /// The filter's index, built or refreshed from the store.
    case indexRead(IndexRefresh)
    /// Bus: accounts or their identities changed; the list is read again.
    case accountsChanged(AccountsChanged)
    /// Bus: who a session acts as changed.
    case statusChanged(UserStatusChanged)
    /// The starred shows of an account, read after it became active; kept
    /// only while it still is.
    case favouritesLoaded(AccountID, Set<String>)
    /// A star was saved (or taken away) for `account`.
    case favouriteSaved(String, starred: Bool, account: AccountID)
    /// Bus: a credential check found an identity in a new state.
    case identityChanged(IdentityStateChanged)
    /// The provider gave a code to show.
    case codeReady(WaitingCode)
    /// Bus: the sign-in moved to a new phase.
    case signInProgress(SignInProgress)
    /// The sign-in's exchanges so far, for the inspector.
    case signInTraced([FlowTraceEntry])
    /// The sign-in ended; `conflict` asks the person to choose.
    case signInEnded(SignInEnding, conflict: ConflictDialog?)
    /// Bus: the theme changed.
    case themeChanged(Theme)
    /// Something to tell the person in a toast.
    case notify(String, Toast.Kind)
    /// A switch was refused because the account has a PIN: ask for it.
    case pinNeeded(AccountID)
    /// Who, besides the active person, has an identity at the provider
    /// that works: a sign-in there may continue as one of them.
    case signedInFound(ProviderID, [Account])
    /// What the store said about the PIN typed for an account.
    case pinChecked(AccountID, PINCheck)
    /// Bus: a shared store's server went away (what went wrong, naming it)
    /// or came back (nil); once back, the list is read again.
    case storeOffline(String?)
    /// A store call has been out a while (true), or none is any more.
    case storeWaiting(Bool)
    /// The token facts of an account's identities (`AppState.detailWanted`), for the detail line.
    case detailRead(AccountDetail)
}

/// The filter's index as read from the store: built whole, or the changes
/// a refresh found (the list's order read again, and the accounts in
/// `reread`).
public struct IndexRefresh: Sendable {
    public enum Content: Sendable {
        case built(SearchIndex)
        case changes(SearchIndex.Changes)
    }

    public let content: Content
    /// The list's `revision` when the read began.
    public let revision: Int
    public let reread: Set<AccountID>

    public init(_ content: Content, revision: Int, reread: Set<AccountID>) {
        self.content = content
        self.revision = revision
        self.reread = reread
    }
}

/// Work the reducer asks the UI loop to do; its results come back as actions.
public enum Effect: Hashable, Sendable {
    /// Read the accounts again: the count, the rows shown, who is active,
    /// and (in the background) the index's order and its stale accounts.
    case reload
    /// Find whom a sign-in at the provider may continue as (`.signedInFound`).
    case findSignedIn(ProviderID)
    case switchAccount(AccountID)
    /// Switch to an account that has a PIN, with the PIN typed for it.
    case switchWithPIN(AccountID, pin: String)
    /// The person pressed Esc while a PIN was being checked: the check is
    /// given up if it has changed nothing yet, and its answer is dropped.
    case cancelPINCheck
    /// Sign this session out, saying why.
    case signOut(SignOutReason)
    case startSignIn(ProviderID, AuthMode)
    case cancelSignIn
    case resolveConflict(ConflictChoice)
    /// Disconnect an identity; an account with a PIN takes it (or, opened by an operator, the operator PIN).
    case disconnect(Identity, pin: PINProof?)
    case setFavourite(String, starred: Bool, account: AccountID)
    /// Read the starred shows of the account now active.
    case loadFavourites(AccountID)
    /// Put text on the clipboard (OSC 52).
    case copy(String)
    /// Open a URL in the browser (only on request).
    case open(String)
    case nextTheme
    case quit
}
