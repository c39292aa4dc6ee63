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
        let titleWidth = max(8, list.width - 22)
        for row in 0..<layout.guideRowsShown {
            let index = guide.scroll + row
            guard index < guide.shows.count else { break }
            let show = guide.shows[index], y = list.y + row
            let selected = index == guide.selection
            let highlight = selected && focused
            let base = highlight ? theme[.accountSelected] : theme[.text]
            if highlight { buffer.fill(Rect(x: list.x, y: y, width: list.width, height: 1), style: base) }
            var x = list.x
            x += buffer.write(selected && !focused ? "›" : " ", x: x, y: y, style: highlight ? base : theme[.muted])
            x += buffer.write(show.time + "  ", x: x, y: y, style: highlight ? base : theme[.guideTime])
            x += buffer.write(show.channel.padded(toWidth: 11) + " ", x: x, y: y, style: highlight ? base : theme[.guideChannel])
            buffer.write(show.title.truncated(toWidth: titleWidth), x: x, y: y, style: base)
            if guide.favourites.contains(show.id) {
                buffer.write("★", x: list.maxX - 2, y: y, style: highlight ? base : theme[.favourite])
            }
        }
        if state.active == .anonymous, list.height > guide.shows.count + 1 {
            buffer.write(" Switch to an account to star favourites.", x: list.x, y: list.maxY - 1, style: theme[.muted], limit: list.width)
        }
    }
}
