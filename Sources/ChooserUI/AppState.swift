import ScreenKit
import SwitchboardCore
import TerminalUI

/// Which pane has the keyboard.
public enum Focus: Hashable, Sendable { case accounts, guide }

/// A row of the accounts pane.
public enum AccountItem: Hashable, Sendable { case account(AccountID), add, anonymous }

/// The accounts pane's own state: what is shown, the filter, the selection.
public struct AccountsPaneState: Sendable {
    public var list: AccountList = .empty
    /// The order the list shows: the store's (most recent use first), or by
    /// name (which says nothing about who was there last, as a station wants).
    public var byName = false
    /// The filter text; empty shows every account. At most
    /// `FilterLine.limit` bytes (UTF-8): what is typed or pasted beyond is dropped.
    public var filter = ""
    /// Whether keys are typed into the filter.
    public var isFiltering = false
    /// Positions in the list of the accounts that pass the filter, in
    /// order; nil when every account does (no filter). Empty while the
    /// index a filter needs is still being built (`isSearching`).
    public var visible: [Int32]?
    /// The results of the filter's shorter prefixes as it was typed (the
    /// shortest first, at most `shorterKept`): erasing a character takes
    /// the one before back instead of searching again.
    var shorter: [(filter: String, visible: [Int32])] = []
    static let shorterKept = 16
    /// The selected item, an index into `items`.
    public var selection = 0
    /// The first item shown.
    public var scroll = 0

    /// The order the list is read in.
    public var order: AccountOrder { byName ? .name : .recentUse }

    /// A filter is set but the index it needs is not built yet.
    public var isSearching: Bool { !filter.isEmpty && list.index == nil }

    /// How many accounts pass the filter.
    public var visibleCount: Int { visible?.count ?? list.count }

    /// Accounts, then "+ Add account" and "Anonymous" (hidden while a filter is set).
    public var itemCount: Int { visibleCount + (filter.isEmpty ? 2 : 0) }

    /// The position in the list of item `index`, when it is an account.
    public func position(ofItem index: Int) -> Int? {
        guard index >= 0, index < visibleCount else { return nil }
        return visible.map { Int($0[index]) } ?? index
    }

    /// The item at `index`; nil past the end, and for an account whose
    /// place in the list is not read yet.
    public func item(at index: Int) -> AccountItem? {
        guard index >= 0, index < itemCount else { return nil }
        if let position = position(ofItem: index) { return list.id(at: position).map(AccountItem.account) }
        return index == visibleCount ? .add : .anonymous
    }

    public func account(at index: Int) -> Account? {
        position(ofItem: index).flatMap(list.account(at:))
    }

    /// The item index of the account, if it passes the filter and its place is known.
    public func itemIndex(of id: AccountID) -> Int? {
        guard let position = list.position(of: id) else { return nil }
        guard let visible else { return position }
        return visible.firstIndex(of: Int32(position))
    }

    public var selectedItem: AccountItem? { item(at: selection) }
}

/// The guide pane's state: whose guide it is and their favourites.
public struct GuideState: Sendable {
    public var guide: Guide
    /// The starred shows of the active person (`AppState.active`, the one
    /// place who is active is kept); empty for nobody.
    public var favourites: Set<String> = []
    /// Whose stars `favourites` are, once read; nil until then.
    public var favouritesOf: AccountID?
    /// The listings in the order shown: favourites first.
    public var shows: [Show]
    public var selection = 0
    public var scroll = 0

    public init(guide: Guide) {
        self.guide = guide
        shows = guide.ordered(favourites: [])
    }

    public var selectedShow: Show? { shows.indices.contains(selection) ? shows[selection] : nil }
}

/// A provider offered in the sign-in dialog.
public struct ProviderChoice: Hashable, Sendable {
    public let id: ProviderID
    public let name: String
    /// Why it cannot be used now (missing client id…), if so.
    public let problem: String?
    /// A demo provider, served on this machine's loopback (started by the
    /// chooser when not running): no network is involved in reaching it.
    public let isLocalDemo: Bool

    public init(id: ProviderID, name: String, problem: String? = nil, isLocalDemo: Bool = false) {
        self.id = id
        self.name = name
        self.problem = problem
        self.isLocalDemo = isLocalDemo
    }
}

/// What the store holds of the tokens of an account's identities (no
/// token), read for the detail line when the account is selected.
public struct AccountDetail: Hashable, Sendable {
    /// The account, and the identities it had when they were read: an
    /// identity linked or disconnected since makes them be read again.
    public let account: AccountID
    public let identities: [Identity]
    /// Each identity's facts; none for an identity with no tokens stored.
    public let facts: [Identity: TokenFacts]

    public init(account: AccountID, identities: [Identity], facts: [Identity: TokenFacts]) {
        self.account = account
        self.identities = identities
        self.facts = facts
    }

    /// Whether these are the facts to show for `account` as it is now.
    public func isFor(_ account: Account) -> Bool {
        self.account == account.id && identities == account.identities.map(\.identity)
    }
}

/// A short message in the corner.
public struct Toast: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case info, warning, error }
    public let id: Int
    public let text: String
    public let kind: Kind
    public let expiresAt: Moment
}

/// Everything the chooser shows. One UI loop owns it; only `reduce` changes it.
public struct AppState: Sendable {
    public let session: SessionKey
    public var size: Size
    public var now: Moment
    public var focus: Focus = .accounts
    public var active: ActiveAccount = .anonymous
    public var accounts = AccountsPaneState()
    public var guide: GuideState
    /// The dialog shown. One that opens takes the key bar's row for its
    /// keys: the toasts shown before it go (those raised while it is open
    /// show there as ever).
    public var dialog: Dialog? {
        didSet { if oldValue == nil, dialog != nil { toasts.removeAll() } }
    }
    public var toasts: [Toast] = []
    public var nextToastID = 1
    public var theme: Theme
    public var providers: [ProviderChoice]
    /// Demo approval hints name this program.
    public var isRunning = true
    /// What a layer around the chooser (a station, the tour) asks of its screen and keys.
    public var surround = ChooserSurround()
    /// While a shared store's server cannot be reached: what went wrong,
    /// naming it. The status bar says "Station offline — retrying", and
    /// nothing that changes the store is offered.
    public var storeOffline: String?
    /// Whether a store call has been out a while: the status bar says the
    /// screen waits for the store (a switch, a PIN check, a list).
    public var storeWaiting = false
    /// Whether the sign-in dialog shows its inspector (`i`); kept from one sign-in to the next.
    public var inspectorShown = false
    /// A sign-in asked for in the sign-in-again dialog, to start once this
    /// session acts as the account (after its PIN, if it has one).
    public var signInAfterSwitch: (account: AccountID, provider: ProviderChoice)?
    /// The token facts of the selected account's identities, for the
    /// detail line, once read (`detailWanted`).
    public var detail: AccountDetail?

    public init(session: SessionKey, size: Size, now: Moment, guide: Guide, theme: Theme, providers: [ProviderChoice]) {
        self.session = session
        self.size = size
        self.now = now
        self.guide = GuideState(guide: guide)
        self.theme = theme
        self.providers = providers
    }

    /// Seconds a toast stays up.
    public static let toastSeconds: Double = 6

    /// Whether a one-second tick is needed (a countdown shows).
    public var needsTicks: Bool {
        if case .signIn(let dialog) = dialog, case .waiting = dialog.phase { return true }
        if case .pin(let pin) = dialog, pin.field.isLocked(at: now) { return true }
        return false
    }

    /// When the state next changes by itself: a toast goes away.
    public var nextDeadline: Moment? { toasts.map(\.expiresAt).min() }
}

extension AppState {
    /// The selected account, when its detail line lacks its token facts:
    /// the loop reads them (`Action.detailRead`).
    public var detailWanted: Account? {
        guard ScreenLayout(size) != nil, let account = accounts.account(at: accounts.selection) else { return nil }
        return detail?.isFor(account) == true ? nil : account
    }
}
