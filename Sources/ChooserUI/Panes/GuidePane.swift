import SwitchboardCore
import TerminalUI

/// The TV guide: tonight's listings, the active person's
/// favourites starred and first.
enum GuidePane {
    static func draw(_ state: AppState, layout: ScreenLayout, into buffer: inout Buffer) {
        let theme = state.theme, guide = state.guide
        let focused = state.focus == .guide && state.dialog == nil
        let title = state.active.account.map { "\(guide.guide.title) for \($0.name.displaySafe)" } ?? guide.guide.title
        buffer.drawBox(layout.guide, title: title, style: theme[focused ? .borderFocused : .border], titleStyle: theme[.title])
        let list = layout.guideList
        for row in 0..<layout.guideRowsShown {
            let index = guide.scroll + row
            guard index < guide.shows.count else { break }
            let show = guide.shows[index], y = list.y + row
            let selected = index == guide.selection
            let highlight = selected && focused
            // Without the focus the selected show keeps its mark and its own look, unfilled.
            let base = highlight ? theme[.accountSelected] : selected ? theme[.selectionUnfocused] : theme[.text]
            if highlight { buffer.fill(Rect(x: list.x, y: y, width: list.width, height: 1), style: base) }
            var x = list.x
            x += buffer.write(selected && !focused ? "›" : " ", x: x, y: y, style: highlight ? base : theme[.muted])
            x += buffer.write(show.time + "  ", x: x, y: y, style: highlight ? base : theme[.guideTime])
            x += buffer.write(show.channel.padded(toWidth: 11) + " ", x: x, y: y, style: highlight ? base : theme[.guideChannel])
            // The title ends a column before the star's, or the pane's edge: cut with "…", never under the star.
            let starred = guide.favourites.contains(show.id)
            buffer.write(show.title.truncated(toWidth: list.maxX - x - (starred ? 3 : 1)), x: x, y: y, style: base)
            if starred {
                buffer.write("★", x: list.maxX - 2, y: y, style: highlight ? base : theme[.favourite])
            }
        }
        if state.active == .anonymous, list.height > guide.shows.count + 1 {
            buffer.write(" Switch to an account to star favourites.".truncated(toWidth: list.width), x: list.x, y: list.maxY - 1, style: theme[.muted])
        }
        DetailLine.draw(state, in: layout.detailLine, into: &buffer)
    }
}

/// The facts of the selected account's identities, on the guide's last
/// row beside the accounts' filter line, as `accounts -v` gives them:
/// provider, login, subject, state, token expiry, scopes. The full facts
/// where they fit, else each identity's provider, name, state and expiry,
/// cut with "…". Blank until they are read, and for a row that is no account.
enum DetailLine {
    static func draw(_ state: AppState, in rect: Rect, into buffer: inout Buffer) {
        guard let text = text(state, width: rect.width - 1) else { return }
        buffer.write(" " + text, x: rect.x, y: rect.y, style: state.theme[.muted], limit: rect.width)
    }

    /// The line for the selected account, at most `width` columns; nil when there is none to show.
    static func text(_ state: AppState, width: Int) -> String? {
        guard width > 0, let account = state.accounts.account(at: state.accounts.selection),
            let detail = state.detail, detail.isFor(account), !account.identities.isEmpty
        else { return nil }
        let names = IdentityNames.distinguishing(account.identities)
        let full = account.identities.map { identity in
            IdentityFacts.line(identity, facts: detail.facts[identity.identity], now: state.now)
        }.joined(separator: "; ")
        if full.displayWidth <= width { return full }
        let short = account.identities.map { identity in
            let head = identity.provider.rawValue + (names[identity.identity].map { " " + $0 } ?? "")
            return (head + " " + identity.state.word + ", " + TokenFacts.expiry(detail.facts[identity.identity], now: state.now)).displaySafe
        }.joined(separator: "; ")
        return short.truncated(toWidth: width)
    }
}
