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
    static let firstPage = 64
    /// The most people a sign-in offers to continue as.
    static let continueAsLimit = 50

    /// The first page of the list, how many accounts there are, who has a
    /// PIN and who is active here.
    func loadFirstPage() {
        let database = environment.database, order = state.accounts.order
        let shown = ScreenLayout(state.size)?.accountItemsShown ?? 0
        do {
            let active = try database.active(in: state.session)
            let page = try database.accountPage(in: order, offset: 0, limit: max(3 * shown, Self.firstPage))
            let list = AccountList(
                page: page, offset: 0, count: try database.accountCount(), protected: try database.protectedAccounts(), order: order)
            reduce(.loaded(list, active: active))
        } catch { fail(error) }
    }

    /// The list read again after a change: the count, who has a PIN, who
    /// is active and the rows shown now (by their place in the index,
    /// else a page), then the index refreshed in the background.
    func reloadAccounts() {
        let database = environment.database, order = state.accounts.order
        let pane = state.accounts
        do {
            let active = try database.active(in: state.session)
            let count = try database.accountCount(), protected = try database.protectedAccounts()
            let list: AccountList
            if pane.list.index?.order == order {
                list = AccountList(page: try database.accounts(ids: state.shownIDs), offset: nil, count: count, protected: protected, order: order)
            } else {
                let shown = ScreenLayout(state.size)?.accountItemsShown ?? 0
                let offset = pane.filter.isEmpty ? pane.scroll : 0
                list = AccountList(
                    page: try database.accountPage(in: order, offset: offset, limit: max(3 * shown, Self.firstPage)), offset: offset,
                    count: count, protected: protected, order: order)
            }
            send(.loaded(list, active: active))
        } catch { fail(error) }
        refreshIndex()
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
        Task.detached { [weak self] in
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
            await MainActor.run {
                guard let self else { return }
                self.roster.reading = false
                // Read from a store the tour has replaced since: the new one's is read instead.
                guard self.environment.database === database else { return self.refreshIndex() }
                switch result {
                case .success(let content): self.send(.indexRead(IndexRefresh(content, revision: revision, reread: reread)))
                case .failure(let error): self.fail(error)
                }
                // What the read left behind (SQLite's cache, its accounts, the index it replaced) goes back to the system.
                database.releaseMemory()
                cpt_release_free_memory()
                if self.roster.again {
                    self.roster.again = false
                    self.refreshIndex()
                }
            }
        }
    }

    /// Reads the rows the pane is about to draw and lacks (`rowsWanted`),
    /// before the frame: a few rows by id, or a page by position.
    func readWantedRows() {
        guard !roster.readingRows, let wanted = state.rowsWanted else { return }
        roster.readingRows = true
        defer { roster.readingRows = false }
        let database = environment.database
        do {
            if !wanted.ids.isEmpty { reduce(.rowsRead(try database.accounts(ids: wanted.ids), offset: nil)) }
            if let range = wanted.positions {
                let page = try database.accountPage(in: state.accounts.order, offset: range.lowerBound, limit: range.count)
                reduce(.rowsRead(page, offset: range.lowerBound))
            }
        } catch {
            reduce(.notify("The store failed: \(error)", .error))
        }
    }

    /// Whom a sign-in at `provider` may continue as, from the store.
    func findSignedIn(_ provider: ProviderID) {
        do {
            let people = try environment.database.accounts(
                signedInAt: provider, except: state.active.id, in: state.accounts.order, limit: Self.continueAsLimit)
            reduce(.signedInFound(provider, people))
        } catch { fail(error) }
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
    /// Rows are being read (so a failure's toast does not read them again).
    var readingRows = false
}
