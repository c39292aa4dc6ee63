import ScreenKit
import SwitchboardCore
import TerminalUI

/// The accounts pane: every account with its identities and their state,
/// then "+ Add account" and "Anonymous"; a filter line at the bottom.
enum AccountsPane {
    /// Beside the name of an account that asks for a PIN: two columns wide.
    static let lockMark = "🔒"

    static func draw(_ state: AppState, layout: ScreenLayout, into buffer: inout Buffer) {
        let theme = state.theme, pane = state.accounts
        let focused = state.focus == .accounts && state.dialog == nil
        buffer.drawBox(layout.accounts, title: "Accounts", style: theme[focused ? .borderFocused : .border], titleStyle: theme[.title])
        let list = layout.accountList
        let shown = layout.accountItemsShown
        for row in 0..<shown {
            let index = pane.scroll + row
            guard index < pane.itemCount else { break }
            // An account whose row is not read yet stays blank for the moment it takes.
            guard let item = pane.item(at: index) else { continue }
            let rect = Rect(x: list.x, y: list.y + row * ScreenLayout.accountRows, width: list.width, height: ScreenLayout.accountRows)
            drawItem(item, index: index, state: state, in: rect, into: &buffer)
        }
        if pane.isSearching {
            buffer.write("  Searching…", x: list.x, y: list.y, style: theme[.muted], limit: list.width)
        } else if pane.visibleCount == 0, !pane.filter.isEmpty {
            buffer.write("  No account matches “\(pane.filter)”.", x: list.x, y: list.y, style: theme[.muted], limit: list.width)
        }
        drawFilter(state, in: layout.filterLine, into: &buffer)
    }

    private static func drawItem(_ item: AccountItem, index: Int, state: AppState, in rect: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        let selected = index == state.accounts.selection
        let base = selected ? theme[.accountSelected] : theme[.text]
        if selected { buffer.fill(rect, style: base) }
        let marker = selected ? "▸ " : "  "
        let nameWidth = rect.width - 5
        switch item {
        case .account(let id):
            guard let account = state.accounts.account(at: index) else { return }
            let isActive = id == state.active.id
            let isProtected = state.accounts.list.protected.contains(id)
            let nameStyle = selected ? base.adding(.bold) : (isActive ? theme[.accountActive] : base)
            let nameRoom = nameWidth - (isProtected ? lockMark.displayWidth + 2 : 0)
            // What the filter matched, for this row on screen only.
            let matched = state.accounts.filter.isEmpty ? RowMatches.none : RowMatches(state.accounts.filter, in: account)
            let x = rect.x + 1 + buffer.write(marker, x: rect.x + 1, y: rect.y, style: nameStyle)
            let name = account.name.displaySafe, shownName = name.truncated(toWidth: nameRoom)
            // A cut name ends with an ellipsis that stands for no character of its own.
            writeMarking(
                shownName, matched: matched.name, own: shownName == name ? shownName.count : shownName.count - 1, x: x, y: rect.y,
                style: nameStyle, matchStyle: matchStyle(over: nameStyle, selected: selected, theme: theme), into: &buffer)
            if isProtected {
                buffer.write(lockMark, x: rect.maxX - 3 - lockMark.displayWidth, y: rect.y, style: selected ? base : theme[.muted])
            }
            if isActive { buffer.write("●", x: rect.maxX - 2, y: rect.y, style: selected ? base : theme[.accountActive]) }
            drawIdentities(
                account, matched: matched.providers, selected: selected, state: state, at: rect.x + 5, y: rect.y + 1, limit: rect.width - 6,
                into: &buffer)
        case .add:
            buffer.write(marker + "+ Add account", x: rect.x + 1, y: rect.y, style: selected ? base.adding(.bold) : base)
            buffer.write("sign in to add one", x: rect.x + 5, y: rect.y + 1, style: selected ? base : theme[.muted], limit: rect.width - 6)
        case .anonymous:
            buffer.write(marker + "Anonymous", x: rect.x + 1, y: rect.y, style: selected ? base.adding(.bold) : base)
            if state.active == .anonymous { buffer.write("●", x: rect.maxX - 2, y: rect.y, style: selected ? base : theme[.accountActive]) }
            buffer.write("nobody: the plain guide", x: rect.x + 5, y: rect.y + 1, style: selected ? base : theme[.muted], limit: rect.width - 6)
        }
    }

    /// "demo ✓  github ⚠ expired"; states shrink to their mark, then the
    /// rest to "+N", when the row is narrow.
    /// The providers' characters the filter `matched` (by identity, see
    /// `RowMatches.providers`) are highlighted.
    private static func drawIdentities(
        _ account: Account, matched: [Int: Set<Int>], selected: Bool, state: AppState, at x: Int, y: Int, limit: Int, into buffer: inout Buffer
    ) {
        let theme = state.theme
        let identities = account.identities.indices.sorted { account.identities[$0].identity < account.identities[$1].identity }
        let parts: [(provider: String, matched: Set<Int>, mark: String, word: String, role: ThemeRole)] = identities.map { index in
            let identity = account.identities[index]
            let (mark, word, role): (String, String, ThemeRole) = switch identity.state {
            case .authorized: ("✓", "", .stateAvailable)
            case .expired: ("⚠", " expired", .stateExpired)
            case .revoked: ("✗", " revoked", .stateRevoked)
            case .notFound: ("✗", " gone", .stateRevoked)
            }
            return (identity.provider.rawValue.displaySafe, matched[index] ?? [], mark, word, role)
        }
        let full = parts.reduce(0) { $0 + $1.provider.displayWidth + 3 + $1.mark.displayWidth + $1.word.displayWidth } - 2
        let withWords = full <= limit
        let base = selected ? theme[.accountSelected] : theme[.muted]
        var used = 0
        for (index, part) in parts.enumerated() {
            let mark = part.mark + (withWords ? part.word : "")
            let width = part.provider.displayWidth + 1 + mark.displayWidth
            let more = index < parts.count - 1 ? " +\(parts.count - index - 1)".displayWidth : 0
            if used > 0, used + 2 + width + more > limit {
                buffer.write("  +\(parts.count - index)", x: x + used, y: y, style: base, limit: limit - used)
                break
            }
            if used > 0 { used += 2 }
            used += writeMarking(
                part.provider, matched: part.matched, own: part.provider.count, limit: limit - used, x: x + used, y: y, style: base,
                matchStyle: matchStyle(over: base, selected: selected, theme: theme), into: &buffer)
            used += buffer.write(" ", x: x + used, y: y, style: base, limit: limit - used)
            used += buffer.write(mark, x: x + used, y: y, style: selected ? base : theme[part.role], limit: limit - used)
        }
    }

    /// How a matched character looks over `style`: in the `match` role's
    /// look, or on the selected row in the row's colours with the role's
    /// attributes (its colours could clash with the selection's).
    private static func matchStyle(over style: Style, selected: Bool, theme: Theme) -> Style {
        selected ? style.adding(theme[.match].attributes) : style.overlaid(by: theme[.match])
    }

    /// Writes `text` (at most `limit` columns of it), its characters at
    /// the offsets in `matched` below `own` in `matchStyle`; returns the
    /// columns written.
    @discardableResult
    private static func writeMarking(
        _ text: String, matched: Set<Int>, own: Int, limit: Int? = nil, x: Int, y: Int, style: Style, matchStyle: Style, into buffer: inout Buffer
    ) -> Int {
        guard !matched.isEmpty else { return buffer.write(text, x: x, y: y, style: style, limit: limit) }
        var used = 0, run = "", runMatched = false
        func flush() {
            used += buffer.write(run, x: x + used, y: y, style: runMatched ? matchStyle : style, limit: limit.map { $0 - used })
            run = ""
        }
        for (offset, character) in text.enumerated() {
            let isMatched = offset < own && matched.contains(offset)
            if isMatched != runMatched, !run.isEmpty { flush() }
            runMatched = isMatched
            run.append(character)
        }
        flush()
        return used
    }

    private static func drawFilter(_ state: AppState, in rect: Rect, into buffer: inout Buffer) {
        let pane = state.accounts
        let count = FilterLine.count(passing: pane.visibleCount, of: pane.list.count, filtered: !pane.filter.isEmpty, one: "account", many: "accounts")
        FilterLine.draw(pane.filter, typing: pane.isFiltering, count: count, theme: state.theme, in: rect, into: &buffer)
    }
}
