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
            buffer.write("  No account matches “\(pane.filter)”.".truncated(toWidth: list.width), x: list.x, y: list.y, style: theme[.muted])
        }
        drawFilter(state, in: layout.filterLine, into: &buffer)
    }

    private static func drawItem(_ item: AccountItem, index: Int, state: AppState, in rect: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        let selected = index == state.accounts.selection
        // The focused pane's selection is filled; without the focus it is its own look, unfilled.
        let focused = state.focus == .accounts && state.dialog == nil
        let base = selected ? theme[focused ? .accountSelected : .selectionUnfocused] : theme[.text]
        if selected && focused { buffer.fill(rect, style: base) }
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
            buffer.write("sign in to add one".truncated(toWidth: rect.width - 6), x: rect.x + 5, y: rect.y + 1, style: selected ? base : theme[.muted])
        case .anonymous:
            buffer.write(marker + "Anonymous", x: rect.x + 1, y: rect.y, style: selected ? base.adding(.bold) : base)
            if state.active == .anonymous { buffer.write("●", x: rect.maxX - 2, y: rect.y, style: selected ? base : theme[.accountActive]) }
            buffer.write("nobody: the plain guide".truncated(toWidth: rect.width - 6), x: rect.x + 5, y: rect.y + 1, style: selected ? base : theme[.muted])
        }
    }

    /// "demo ✓  github ⚠ expired"; two identities of one provider carry
    /// their login or email ("demo ✓ ada  demo ✓ ada2"). When the row is
    /// narrow the states shrink to their mark, then those names are cut
    /// with "…", then the rest goes to "+N". The providers' characters the
    /// filter `matched` (by identity, see `RowMatches.providers`) are
    /// highlighted.
    private static func drawIdentities(
        _ account: Account, matched: [Int: Set<Int>], selected: Bool, state: AppState, at x: Int, y: Int, limit: Int, into buffer: inout Buffer
    ) {
        let theme = state.theme
        let order = account.identities.indices.sorted { account.identities[$0].identity < account.identities[$1].identity }
        let names = IdentityNames.distinguishing(order.map { account.identities[$0] })
        let parts: [IdentityPart] = order.map { index in
            let identity = account.identities[index]
            let role: ThemeRole = switch identity.state {
            case .authorized: .stateAvailable
            case .expired: .stateExpired
            case .revoked, .notFound: .stateRevoked
            }
            return IdentityPart(
                provider: identity.provider.rawValue.displaySafe, matched: matched[index] ?? [], mark: identity.state.mark,
                word: identity.state == .authorized ? "" : " " + identity.state.word, name: names[identity.identity]?.displaySafe, role: role)
        }
        let (withWords, nameWidth) = IdentityPart.fit(parts, in: limit)
        let base = selected ? theme[.accountSelected] : theme[.muted]
        var used = 0
        for (index, part) in parts.enumerated() {
            let mark = part.mark + (withWords ? part.word : "")
            let name = part.name.map { " " + $0.truncated(toWidth: nameWidth) } ?? ""
            let width = part.provider.displayWidth + 1 + mark.displayWidth + name.displayWidth
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
            used += buffer.write(name, x: x + used, y: y, style: base, limit: limit - used)
        }
    }

    /// One identity of a row: its provider, state, and the name that tells
    /// it from another of its provider.
    struct IdentityPart {
        let provider: String
        /// Offsets of the provider's characters the filter matched.
        let matched: Set<Int>
        let mark: String, word: String
        let name: String?
        let role: ThemeRole

        func width(withWord: Bool, nameWidth: Int) -> Int {
            provider.displayWidth + 1 + mark.displayWidth + (withWord ? word.displayWidth : 0)
                + (name.map { 1 + min($0.displayWidth, nameWidth) } ?? 0)
        }

        /// Whether the states keep their words, and the widest a name may
        /// be, for as many of `parts` as can to fit in `limit` columns (the
        /// rest go to "+N" as they are drawn): words go first, then names
        /// are cut (to no less than two columns, "a…"), as little as
        /// showing the most identities allows.
        static func fit(_ parts: [IdentityPart], in limit: Int) -> (withWords: Bool, nameWidth: Int) {
            let widest = parts.compactMap { $0.name?.displayWidth }.max() ?? 0
            if shown(parts, withWords: true, nameWidth: widest, in: limit) == parts.count { return (true, widest) }
            var best = (count: -1, width: widest)
            for width in stride(from: widest, through: min(2, widest), by: -1) {
                let count = shown(parts, withWords: false, nameWidth: width, in: limit)
                if count > best.count { best = (count, width) }
            }
            return (false, best.width)
        }

        /// How many of `parts` the row shows before "+N", as `drawIdentities` lays them out.
        static func shown(_ parts: [IdentityPart], withWords: Bool, nameWidth: Int, in limit: Int) -> Int {
            var used = 0
            for (index, part) in parts.enumerated() {
                let width = part.width(withWord: withWords, nameWidth: nameWidth)
                let more = index < parts.count - 1 ? " +\(parts.count - index - 1)".displayWidth : 0
                if used > 0, used + 2 + width + more > limit { return index }
                used += (used > 0 ? 2 : 0) + width
            }
            return parts.count
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
