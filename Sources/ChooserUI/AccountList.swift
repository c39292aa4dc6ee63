import SwitchboardCore

/// What the chooser holds of the store's accounts: how many there are, the
/// rows it draws (and a few around them), which ones have a PIN, and the
/// filter's `SearchIndex`, which also knows every account's place in the
/// list. A big roster is never read whole: the first page comes with the
/// first frame, the index is built after it, and rows are read as they
/// scroll into view (the loop reads what `AppState.rowsWanted` names).
///
/// A list made from accounts (`init(_:protected:order:)`) holds them all.
public struct AccountList: Sendable {
    /// The order the list is in.
    public private(set) var order: AccountOrder
    /// How many accounts the store holds.
    public private(set) var count: Int
    /// The accounts that ask for a PIN before a switch (the lock mark).
    public private(set) var protected: Set<AccountID>
    /// The accounts read, by id: those shown, and those around them.
    public private(set) var rows: [AccountID: Account]
    /// Where the accounts of pages read stand, while there is no index.
    private var paged: [Int: AccountID]
    /// The filter's index, once built.
    public private(set) var index: SearchIndex?
    /// Accounts whose text in the index the store has changed since (all
    /// of them when `allStale`): the next refresh reads them again.
    public private(set) var stale: Set<AccountID> = []
    public private(set) var allStale = false
    /// Counts the changes made here to the index's order (a switch moving
    /// someone to the top): an index read from the store before one is
    /// older than the list.
    public private(set) var revision = 0

    /// The most rows kept beyond those shown.
    static let rowsKept = 512

    /// Every account, in the order given (`order`); `protected` are those
    /// with a PIN.
    public init(_ accounts: [Account], protected: Set<AccountID> = [], order: AccountOrder = .recentUse) {
        self.order = order
        count = accounts.count
        self.protected = protected
        rows = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        paged = [:]
        index = SearchIndex(accounts, order: order)
    }

    /// `page`, the accounts from position `offset` of a list in `order` of
    /// `count` accounts; with no offset, rows whose places the index
    /// (kept from the list read before, see `.loaded`) knows.
    public init(page: [Account], offset: Int?, count: Int, protected: Set<AccountID>, order: AccountOrder) {
        self.order = order
        self.count = count
        self.protected = protected
        rows = Dictionary(page.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        paged = offset.map { offset in Dictionary(page.enumerated().map { (offset + $0.offset, $0.element.id) }, uniquingKeysWith: { $1 }) } ?? [:]
        index = nil
    }

    /// No accounts read yet (and no index).
    public static let empty = AccountList(page: [], offset: 0, count: 0, protected: [], order: .recentUse)

    /// Whether every account's row is here (a small roster, or one made
    /// from accounts): then the list can answer what it would otherwise
    /// ask the store.
    public var isComplete: Bool { rows.count == count && (index?.count ?? paged.count) == count }

    /// The account at `position` of the list, if read.
    public func account(at position: Int) -> Account? { id(at: position).flatMap { rows[$0] } }

    /// The account at `position` of the list, if known.
    public func id(at position: Int) -> AccountID? {
        if let index { return index.id(at: position) ?? paged[position] }
        return paged[position]
    }

    /// Where the account stands in the list, if known.
    public func position(of id: AccountID) -> Int? {
        if let index { return index.position(of: id) }
        return paged.first { $0.value == id }?.key
    }

    /// The accounts read, in the list's order: all of them for a complete
    /// list (for tests, and small lists; a big one reads what it shows).
    public var accounts: [Account] { (0..<count).compactMap(account(at:)) }

    /// Positions of the accounts matching `query`, best first (see
    /// `SearchIndex.matches`); nil until the index is built.
    public func matches(_ query: String, within candidates: [Int32]? = nil) -> [Int32]? {
        index?.matches(query, within: candidates)
    }

    /// The score of the account at `position` for `query` (see
    /// `SearchIndex.score`); nil when it does not match, or there is no index.
    public func score(_ query: String, at position: Int) -> Int32? {
        index?.score(query, at: position)
    }

    // MARK: Changes

    /// The same accounts in `wanted` order, when this list can tell (it is
    /// already, or it holds every account and `wanted` is by name); nil
    /// when only the store can.
    public func ordered(_ wanted: AccountOrder) -> AccountList? {
        if wanted == order { return self }
        guard wanted == .name, isComplete else { return nil }
        let sorted = accounts.map { (key: Array(AccountOrder.nameKey($0.name).utf8), account: $0) }
            .sorted { $0.key != $1.key ? $0.key.lexicographicallyPrecedes($1.key) : $0.account.id < $1.account.id }
        return AccountList(sorted.map(\.account), protected: protected, order: .name)
    }

    /// Moves `account` to the top (the store's order by use, right after a
    /// switch to it); false when the list cannot tell where it was.
    mutating func moveToFront(_ account: Account) -> Bool {
        guard order == .recentUse else { return false }
        if let index {
            guard self.index?.moveToFront(account.id) == true else { return false }
            revision += 1
            rows[account.id] = account
            return index.count == count
        }
        // The first page only: every account before it is known, or it is further down than all of them.
        guard paged.keys.allSatisfy({ $0 < paged.count }) else { return false }
        let before = position(of: account.id) ?? paged.count
        paged = Dictionary(uniqueKeysWithValues: paged.compactMap { entry in
            entry.value == account.id ? nil : (entry.key < before ? entry.key + 1 : entry.key, entry.value)
        })
        paged[0] = account.id
        rows[account.id] = account
        revision += 1
        return true
    }

    /// Takes the index of a list read again (`.loaded`), when in the same order.
    mutating func keepIndex(of older: AccountList) {
        guard index == nil, let kept = older.index, kept.order == order else { return }
        index = kept
        paged = [:]
        (stale, allStale, revision) = (older.stale, older.allStale, older.revision)
    }

    /// A built index, or a refresh's changes (see `AppState.indexRead`):
    /// taken unless this list changed the order since they were read (or,
    /// for changes, has no index they apply to); the accounts read again
    /// are no longer stale. Returns whether it was taken.
    mutating func take(_ refresh: IndexRefresh) -> Bool {
        guard refresh.revision == revision else { return false }
        switch refresh.content {
        case .built(let built):
            guard built.order == order else { return false }
            index = built
            allStale = false
        case .changes(let changes):
            guard index?.order == order, index?.apply(changes) == true else { return false }
        }
        paged = [:]
        stale.subtract(refresh.reread)
        return true
    }

    /// The store changed these accounts (all of them, with `all`: then the
    /// index goes at once, rather than be held beside the one built anew,
    /// and the list is read by position until that one comes).
    mutating func markStale(_ ids: [AccountID], all: Bool) {
        guard all else { return stale.formUnion(ids) }
        allStale = true
        stale = []
        if index != nil {
            index = nil
            paged = [:]
            revision += 1
        }
    }

    /// Rows read (from position `offset` of the list, with no index yet);
    /// rows far from those `shown` go once there are many.
    mutating func add(_ read: [Account], offset: Int?, shown: [AccountID]) {
        for account in read { rows[account.id] = account }
        if let offset, index == nil {
            for (step, account) in read.enumerated() { paged[offset + step] = account.id }
        }
        guard rows.count > count || rows.count > Self.rowsKept + shown.count else { return }
        let keep = Set(shown)
        rows = rows.filter { keep.contains($0.key) }
    }
}
