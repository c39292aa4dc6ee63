import ChooserUI
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
    /// read at a time (a change meanwhile asks for another after it).
    func refreshIndex() {
        guard !roster.reading else {
            roster.again = true
            return
        }
        roster.reading = true
        let database = environment.database, order = state.accounts.order, list = state.accounts.list
        let base = list.index?.order == order && !list.allStale ? list.index : nil
        let revision = list.revision, reread = list.stale
        Task.detached(priority: .userInitiated) { [weak self] in
            let result = Result { () throws(StoreError) -> SearchIndex in
                guard var index = base else {
                    var built = SearchIndex(order: order)
                    try database.forEachAccount(in: order) { built.append($0) }
                    return built
                }
                let listed = try database.accountIDs(in: order)
                let added = listed.filter { !index.contains($0) }
                for account in try database.accounts(ids: added + reread.sorted()) { index.update(account) }
                index.reorder(listed)
                return index
            }
            await MainActor.run {
                guard let self else { return }
                self.roster.reading = false
                switch result {
                case .success(let index):
                    self.send(.indexRead(IndexRefresh(index: index, revision: revision, reread: reread, all: base == nil)))
                case .failure(let error):
                    self.fail(error)
                }
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

/// The loop's bookkeeping of its reads.
struct RosterReads {
    /// An index build or refresh is under way.
    var reading = false
    /// Another was asked for meanwhile.
    var again = false
    /// Rows are being read (so a failure's toast does not read them again).
    var readingRows = false
}
