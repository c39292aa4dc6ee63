import ChooserUI
import CSystem
import Foundation
import Store
import SwitchboardCore
import TerminalUI

/// How the loop reads the accounts: never all of them at once. The first
/// frame shows the first page; the filter's index is built after it, in
/// the background, and refreshed there when the store changes (its order
/// read again, and only the accounts that changed); rows are read as they
/// scroll into view.
extension ChooserLoop {
    /// Accounts read with the first frame, at least: a few screens' worth.
    static var firstPage: Int { RosterReads.firstPage }
    /// The most people a sign-in offers to continue as.
    static var continueAsLimit: Int { RosterReads.continueAsLimit }

    /// The first page of the list, how many accounts there are, who has a
    /// PIN and who is active here; `holdsFrame`: how long a frame waits for
    /// it; `then`, once it is reduced.
    func loadFirstPage(holdsFrame: StoreLink.FrameHold = .standard, then: (@MainActor () -> Void)? = nil) {
        let order = state.accounts.order, session = state.session
        let limit = max(3 * (state.layout?.accountItemsShown ?? 0), Self.firstPage)
        roster.reloads += 1
        let reload = roster.reloads
        link.call(environment.database, holdsFrame: holdsFrame, { db throws(StoreError) in
            let active = try db.active(in: session)
            let page = try db.accountPage(in: order, offset: 0, limit: limit)
            return (AccountList(page: page, offset: 0, count: try db.accountCount(), protected: try db.protectedAccounts(), order: order), active)
        }) { [weak self] result in
            guard let self, self.roster.reloads == reload else { return }
            self.answer(result) { .loaded($0.0, active: $0.1) }
            then?()
        }
    }

    /// The list read again after a change: the count, who has a PIN, who
    /// is active and the rows shown now (by their place in the index,
    /// else a page), then, once that is reduced, the index refreshed in the
    /// background. An answer overtaken by a newer reload is dropped.
    func reloadAccounts() {
        let order = state.accounts.order, session = state.session, pane = state.accounts
        let byIndex = pane.list.index?.order == order, shownIDs = state.shownIDs
        let limit = max(3 * (state.layout?.accountItemsShown ?? 0), Self.firstPage)
        let offset = pane.filter.isEmpty ? pane.scroll : 0
        roster.reloads += 1
        let reload = roster.reloads
        link.call(environment.database, { db throws(StoreError) in
            let active = try db.active(in: session)
            let count = try db.accountCount(), protected = try db.protectedAccounts()
            let list =
                byIndex
                ? AccountList(page: try db.accounts(ids: shownIDs), offset: nil, count: count, protected: protected, order: order)
                : AccountList(
                    page: try db.accountPage(in: order, offset: offset, limit: limit), offset: offset, count: count, protected: protected,
                    order: order)
            return (list, active)
        }) { [weak self] result in
            guard let self, self.roster.reloads == reload else { return }
            self.answer(result) { .loaded($0.0, active: $0.1) }
            // After the list it refreshes is reduced: an index read from an older list is one the reducer drops.
            if case .success = result { self.refreshIndex() }
        }
    }

    /// Builds the filter's index, or refreshes it, off the main actor; one
    /// read at a time (a change meanwhile asks for another after it). A
    /// refresh works from a copy of the index that it lets go of before the
    /// main actor applies what it found, so the index is changed in place,
    /// never copied whole.
    func refreshIndex() {
        guard !roster.reading else {
            roster.again = true
            return
        }
        roster.reading = true
        let database = environment.database, order = state.accounts.order
        let copy = IndexCopy(state.accounts.list.index.flatMap { $0.order == order && !state.accounts.list.allStale ? $0 : nil })
        let revision = state.accounts.list.revision, reread = state.accounts.list.stale
        // On a thread of its own, not the concurrency pool's: a big roster's read is long, and a silent server's takes its deadline.
        ChooserLoop.indexQueue.async { [weak self] in
            let result = Result { () throws(StoreError) -> IndexRefresh.Content in
                guard let base = copy.take() else {
                    var built = SearchIndex(order: order)
                    try database.forEachAccount(in: order) { built.append($0) }
                    return .built(built)
                }
                let listed = try database.accountIDs(in: order)
                let added = listed.filter { !base.contains($0) }
                let accounts = try database.accounts(ids: added + reread.sorted())
                return .changes(base.changes(listing: listed, reread: accounts))
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let self else { return }
                    self.roster.reading = false
                    // Read from a store the tour has replaced since: the new one's is read instead.
                    guard self.environment.database === database else { return self.refreshIndex() }
                    switch result {
                    case .success(let content): self.send(.indexRead(IndexRefresh(content, revision: revision, reread: reread)))
                    case .failure(let error): self.fail(error)
                    }
                    // What the read left behind (SQLite's cache, its accounts, the index it replaced) goes back to the system.
                    ChooserLoop.indexQueue.async {
                        database.releaseMemory()
                        cpt_release_free_memory()
                    }
                    if self.roster.again {
                        self.roster.again = false
                        self.refreshIndex()
                    }
                }
            }
        }
    }

    /// Where the filter's index is read: one read at a time, off the main actor and the concurrency pool.
    nonisolated static var indexQueue: DispatchQueue { RosterReads.indexQueue }

    /// Reads the rows the pane is about to draw and lacks (`rowsWanted`):
    /// a few rows by id, or a page by position. One read at a time; the
    /// same rows are not asked for twice in a row (the store may no longer
    /// have them: the next change reads the list again).
    func readWantedRows() {
        guard !roster.readingRows, let wanted = state.rowsWanted, wanted != roster.lastWanted else { return }
        roster.readingRows = true
        roster.lastWanted = wanted
        let order = state.accounts.order
        link.call(environment.database, { db throws(StoreError) -> ([Account]?, [Account]?) in
            let byID = wanted.ids.isEmpty ? nil : try db.accounts(ids: wanted.ids)
            guard let range = wanted.positions else { return (byID, nil) }
            return (byID, try db.accountPage(in: order, offset: range.lowerBound, limit: range.count))
        }) { [weak self] result in
            guard let self else { return }
            self.roster.readingRows = false
            switch result {
            case .success(let (byID, page)):
                if let byID { self.reduce(.rowsRead(byID, offset: nil)) }
                if let page, let range = wanted.positions { self.reduce(.rowsRead(page, offset: range.lowerBound)) }
                self.endTurn()
            case .failure(let error):
                self.fail(error)
            }
        }
    }

    /// Reads the token facts (no token) of the selected account's
    /// identities for the detail line (`detailWanted`), one read at a time.
    func readWantedDetail() {
        guard !roster.readingDetail, let account = state.detailWanted, account != roster.detailFailed else { return }
        roster.readingDetail = true
        let identities = account.identities.map(\.identity)
        // Holding no key: moving down the list is never kept waiting for a line beside it.
        link.call(environment.database, holdsFrame: .never, { db throws(StoreError) in try db.tokenFacts(of: identities) }) { [weak self] result in
            guard let self else { return }
            self.roster.readingDetail = false
            switch result {
            case .success(let facts):
                self.reduce(.detailRead(AccountDetail(account: account.id, identities: identities, facts: facts)))
                self.endTurn()
            case .failure(let error):
                // Not asked for again until the selection (or the account) changes.
                self.roster.detailFailed = account
                self.fail(error)
            }
        }
    }

    /// Whom a sign-in at `provider` may continue as, from the store.
    func findSignedIn(_ provider: ProviderID) {
        let except = state.active.id, order = state.accounts.order, limit = Self.continueAsLimit
        link.call(environment.database, { db throws(StoreError) in
            try db.accounts(signedInAt: provider, except: except, in: order, limit: limit)
        }) { [weak self] in
            self?.answer($0) { .signedInFound(provider, $0) }
        }
    }
}

/// The index a refresh works from, handed over once: taken, the refresh
/// holds the only other reference, and lets it go when done.
final class IndexCopy: @unchecked Sendable {
    private var index: SearchIndex?
    private let lock = NSLock()

    init(_ index: SearchIndex?) { self.index = index }

    func take() -> SearchIndex? {
        lock.lock()
        defer { lock.unlock() }
        defer { index = nil }
        return index
    }
}

/// The loop's bookkeeping of its reads.
struct RosterReads {
    /// An index build or refresh is under way.
    var reading = false
    /// Another was asked for meanwhile.
    var again = false
    /// Rows are being read.
    var readingRows = false
    /// The detail line's token facts are being read.
    var readingDetail = false
    /// The account whose facts could not be read, as it was then.
    var detailFailed: Account?
    /// The rows last asked for.
    var lastWanted: RowsWanted?
    /// Counts the list's reads: an answer of an older one is dropped.
    var reloads = 0

    /// Accounts read with the first frame, at least: a few screens' worth.
    static let firstPage = 64
    /// The most people a sign-in offers to continue as.
    static let continueAsLimit = 50
    /// Where the filter's index is read: one read at a time, off the main actor and the concurrency pool.
    static let indexQueue = DispatchQueue(label: "switchboard.index")
}
