import SwitchboardCore

/// Rows the accounts pane is about to draw but has not read.
public struct RowsWanted: Hashable, Sendable {
    /// Accounts whose place is known, by id.
    public var ids: [AccountID]
    /// Positions of the list whose accounts are not known yet (no index
    /// yet): a page to read by offset.
    public var positions: Range<Int>?
}

extension AppState {
    /// What the pane needs read before it draws: nil when it has every row
    /// it shows. A screen above and below are read along, so that
    /// scrolling seldom waits for the store.
    public var rowsWanted: RowsWanted? {
        guard let layout else { return nil }
        let shown = layout.accountItemsShown
        let window = accounts.scroll..<min(accounts.itemCount, accounts.scroll + shown)
        guard window.contains(where: { isUnread(item: $0) }) else { return nil }
        var wanted = RowsWanted(ids: [], positions: nil)
        var unplaced: [Int] = []
        for item in max(0, accounts.scroll - shown)..<min(accounts.itemCount, accounts.scroll + 2 * shown) {
            guard let position = accounts.position(ofItem: item) else { continue }
            if let id = accounts.list.id(at: position) {
                if accounts.list.rows[id] == nil { wanted.ids.append(id) }
            } else {
                unplaced.append(position)
            }
        }
        if let first = unplaced.min(), let last = unplaced.max() { wanted.positions = first..<(last + 1) }
        return wanted
    }

    /// Whether item `index` is an account the pane cannot draw yet.
    private func isUnread(item index: Int) -> Bool {
        guard let position = accounts.position(ofItem: index) else { return false }
        guard let id = accounts.list.id(at: position) else { return true }
        return accounts.list.rows[id] == nil
    }
}
