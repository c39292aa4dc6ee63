import SwitchboardCore
import ScreenKit
import TerminalUI

/// Where each part of the board goes at a size. Pure, so the reducer
/// (scrolling, mouse hits) and the drawing agree.
public struct BoardLayout: Hashable, Sendable {
    public let statusBar: Rect
    public let stations: Rect
    /// The column heads, inside the stations' frame.
    public let header: Rect
    /// The stations' rows, under the heads.
    public let rows: Rect
    public let filterLine: Rect
    public let detail: Rect
    public let keyBar: Rect

    /// The layout, or nil below the chooser's minimum size.
    public init?(_ size: Size) {
        guard size.width >= TooSmall.minimum.width, size.height >= TooSmall.minimum.height else { return nil }
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let (top, rest) = screen.splitRows(1)
        let (bottom, body) = rest.splitRows(-1)
        statusBar = top
        keyBar = bottom
        // The detail pane keeps a third of the body, at least six rows.
        let detailHeight = max(6, body.height / 3)
        (stations, detail) = body.splitRows(body.height - detailHeight)
        let inside = stations.inset()
        (header, _) = inside.splitRows(1)
        let (list, filter) = inside.splitRows(inside.height - 1)
        filterLine = filter
        rows = Rect(x: list.x, y: list.y + 1, width: list.width, height: max(0, list.height - 1))
    }

    /// How many stations' rows fit.
    public var rowsShown: Int { max(1, rows.height) }
}

/// The board, drawn from its state into a fresh buffer: the status bar, the
/// stations, the selected one's detail, a dialog, the key bar.
public enum BoardScreen {
    public static func draw(_ state: BoardState) -> Buffer {
        var buffer = Buffer(size: state.size, fill: Cell(" ", style: state.theme[.text]))
        guard let layout = BoardLayout(state.size) else {
            TooSmall.draw(theme: state.theme, size: state.size, into: &buffer)
            return buffer
        }
        BoardStatusBar.draw(state, in: layout.statusBar, into: &buffer)
        BoardTable.draw(state, layout: layout, into: &buffer)
        BoardDetail.draw(state, in: layout.detail, into: &buffer)
        switch state.dialog {
        case .help(let scroll): BoardHelp.draw(state, scroll: scroll, into: &buffer)
        case .pin(let field, _): BoardDialogs.drawPIN(field, state: state, into: &buffer)
        case .confirm(let action): BoardDialogs.drawConfirm(action, state: state, into: &buffer)
        case .chooseIdentity(_, let name, let identities, let selection):
            BoardDialogs.drawChooseIdentity(name: name, identities: identities, selection: selection, state: state, into: &buffer)
        case nil: break
        }
        buffer.drawKeyBar(
            state.keyBar, in: layout.keyBar, keyStyle: state.theme[.keyBarKey], labelStyle: state.theme[.keyBarLabel],
            dimStyle: state.theme[.keyBarLabel].adding(.dim))
        return buffer
    }
}

/// The top bar: the board's title, the fleet's counts, what an action did, the operator's session.
/// A message too long for its room takes the session's and the clock's while it shows.
enum BoardStatusBar {
    static func draw(_ state: BoardState, in rect: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        buffer.fill(rect, style: theme[.statusBar])
        var x = rect.x + buffer.write(" Switchboard fleet", x: rect.x, y: rect.y, style: theme[.statusBar].adding(.bold))
        let counts = state.counts
        let summary = state.loaded
            ? "  \(state.stations.count) \(state.stations.count == 1 ? "station" : "stations") · \(counts.inUse) in use · \(counts.offline) offline" : "  reading…"
        var right = "⌂ \(state.operatorSession.displaySafe)  \(state.clock.text(at: state.now)) "
        var room = rect.maxX - right.displayWidth - x - 1
        // What an action did, for the moment it shows, has the session's and the clock's room where it needs it.
        if state.storeOffline == nil, !state.storeWaiting, let message = state.message, ("  " + message.text).displayWidth > room {
            right = ""
            room = rect.maxX - x - 1
        }
        if state.storeOffline != nil {
            x += buffer.write("  ⚠ Store offline — retrying".truncated(toWidth: max(0, room)), x: x, y: rect.y, style: theme[.statusWarning])
        } else if state.storeWaiting {
            x += buffer.write("  ⋯ waiting for the store".truncated(toWidth: max(0, room)), x: x, y: rect.y, style: theme[.statusBar].adding(.dim))
        } else if let message = state.message {
            x += buffer.write(("  " + message.text).truncated(toWidth: max(0, room)), x: x, y: rect.y, style: theme[message.isError ? .statusError : .statusOK])
        } else {
            x += buffer.write(summary.truncated(toWidth: max(0, room)), x: x, y: rect.y, style: theme[.statusBar])
        }
        if !right.isEmpty, right.displayWidth < rect.width - 20 {
            buffer.write(right, x: rect.maxX - right.displayWidth, y: rect.y, style: theme[.statusBar])
        }
    }
}

/// The columns of the stations' table at a width: fixed ones first, the
/// station and the person share what is left.
struct BoardColumns {
    let station: Int, terminal: Int, who: Int, since: Int, idle: Int, state: Int

    init(width: Int) {
        terminal = 8
        since = 5
        idle = 6
        state = width >= 70 ? 20 : 14
        let left = max(8, width - 2 - terminal - since - idle - state - 10)
        station = max(4, left * 2 / 5)
        who = max(4, left - station)
    }

    /// The cells of a row, each cut to its column, two spaces apart.
    func line(_ cells: [String]) -> String {
        zip(cells, [station, terminal, who, since, idle, state]).map { text, width in
            let cut = text.truncated(toWidth: width)
            return cut + String(repeating: " ", count: max(0, width - cut.displayWidth))
        }.joined(separator: "  ")
    }
}

/// The stations, a row each, with the filter line at the foot of its frame.
enum BoardTable {
    static func draw(_ state: BoardState, layout: BoardLayout, into buffer: inout Buffer) {
        let theme = state.theme
        buffer.drawBox(layout.stations, title: state.order.title, style: theme[state.dialog == nil ? .borderFocused : .border], titleStyle: theme[.title])
        let columns = BoardColumns(width: layout.rows.width)
        buffer.write("  " + columns.line(["STATION", "TERMINAL", "WHO", "SINCE", "IDLE", "STATE"]), x: layout.header.x, y: layout.header.y,
                     style: theme[.muted].adding(.bold), limit: layout.header.width)
        for row in 0..<layout.rowsShown {
            let index = state.scroll + row
            guard index < state.visible.count else { break }
            let station = state.stations[state.visible[index]]
            let selected = index == state.selection
            let y = layout.rows.y + row
            let status = state.status(station)
            let base = selected ? theme[.accountSelected] : theme[.text]
            if selected { buffer.fill(Rect(x: layout.rows.x, y: y, width: layout.rows.width, height: 1), style: base) }
            let cells = [station.station, station.terminal, station.who, since(station.since, state: state),
                         StationStatus.span(state.idleSeconds(station)), status.words].map(\.displaySafe)
            let style = selected ? base.adding(.bold) : base
            let x = layout.rows.x + buffer.write(selected ? "▸ " : "  ", x: layout.rows.x, y: y, style: style)
            let text = columns.line(cells)
            buffer.write(text, x: x, y: y, style: style, limit: layout.rows.maxX - x)
            // The state in its colour, over the plain text.
            let stateX = x + text.displayWidth - columns.state
            if !selected, stateX < layout.rows.maxX {
                buffer.write(status.words.truncated(toWidth: columns.state), x: stateX, y: y, style: theme[role(status)], limit: layout.rows.maxX - stateX)
            }
        }
        if state.loaded, state.visible.isEmpty {
            let text = state.stations.isEmpty ? "  No station has reported to this store." : "  No station matches “\(state.filter.displaySafe)”."
            buffer.write(text.truncated(toWidth: layout.rows.width), x: layout.rows.x, y: layout.rows.y, style: theme[.muted])
        }
        drawFilter(state, in: layout.filterLine, into: &buffer)
    }

    /// The time of day within the last day, else how many days ago (`3d`).
    static func since(_ moment: Moment, state: BoardState) -> String {
        let ago = moment.distance(to: state.now)
        return ago < 86_400 ? state.clock.text(at: moment) : "\(Int(ago / 86_400))d"
    }

    static func role(_ status: StationStatus) -> ThemeRole {
        switch status {
        case .inUse: .stateAvailable
        case .countdown, .lockedOut: .stateExpired
        case .offline: .stateRevoked
        case .idle: .muted
        case .handOff: .accountActive
        }
    }

    private static func drawFilter(_ state: BoardState, in rect: Rect, into buffer: inout Buffer) {
        let count = FilterLine.count(
            passing: state.visible.count, of: state.stations.count, filtered: !state.filter.isEmpty, one: "station", many: "stations")
        FilterLine.draw(state.filter, typing: state.isFiltering, count: count, theme: state.theme, in: rect, into: &buffer)
    }
}

/// The selected station: its session, version, start and last report, then its recent events, the newest first.
enum BoardDetail {
    static func draw(_ state: BoardState, in rect: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        guard let station = state.selectedStation else {
            buffer.drawBox(rect, title: "Station", style: theme[.border], titleStyle: theme[.title])
            return
        }
        let inner = buffer.drawBox(rect, title: "\(station.station) · \(station.terminal)".displaySafe, style: theme[.border], titleStyle: theme[.title])
        let clock = state.clock
        let facts = "session \(station.session) · version \(station.version) · started \(clock.text(at: station.started))"
            + " · last report \(clock.text(at: station.heartbeat))"
        buffer.write((" " + facts.displaySafe).truncated(toWidth: inner.width), x: inner.x, y: inner.y, style: theme[.muted])
        // A station whose clock is off: its times are the server's, but its own screen's clock misleads.
        var top = inner.y + 1
        if let skew = station.clockOff {
            buffer.write(" Clock \(StationStatus.clockDistance(skew)): set its time".truncated(toWidth: inner.width), x: inner.x, y: top, style: theme[.statusWarning])
            top += 1
        }
        let lines = Array(state.events.reversed().prefix(max(0, inner.maxY - top)))
        if lines.isEmpty, state.eventsOf == station.key {
            buffer.write(" No events logged here yet.".truncated(toWidth: inner.width), x: inner.x, y: top, style: theme[.muted])
        }
        for (row, event) in lines.enumerated() {
            let y = top + row
            let x = inner.x + buffer.write(" " + clock.text(at: event.at) + "  ", x: inner.x, y: y, style: theme[.guideTime])
            let text = event.who.displaySafe + "  " + event.what.displaySafe
                + (event.session.map { $0 == station.session ? "" : "  (\($0.displaySafe))" } ?? "")
            buffer.write(text.truncated(toWidth: max(0, inner.maxX - x)), x: x, y: y, style: theme[.text])
        }
    }
}

/// The operator PIN, the identity to disconnect, and the question before an action.
enum BoardDialogs {
    static func area(_ state: BoardState) -> Rect { Rect(x: 0, y: 1, width: state.size.width, height: max(0, state.size.height - 2)) }

    /// The stations and detail panes, frames and all: a dialog clears the rows of them it spans (`DialogFrame.clear`).
    static func panes(_ state: BoardState) -> [Rect] {
        guard let layout = BoardLayout(state.size) else { return [] }
        return [layout.stations, layout.detail]
    }

    static func drawPIN(_ field: PINField, state: BoardState, into buffer: inout Buffer) {
        let theme = state.theme
        let size = Size(width: min(56, state.size.width - 4), height: min(state.size.height - 2, 10))
        let inner = DialogFrame.draw(title: "Operator PIN", size: size, theme: theme, over: area(state), clearing: panes(state), into: &buffer)
        let y = DialogFrame.paragraph(
            "Type the operator PIN to act on the fleet. It is kept until the board is idle for \(StationStatus.span(Int(state.idleLimit.timeout))).",
            in: inner, y: inner.y + 1, style: theme[.text], into: &buffer) + 1
        field.draw(in: inner, y: y, theme: theme, now: state.now, into: &buffer)
    }

    static func drawConfirm(_ action: OperatorAction, state: BoardState, into buffer: inout Buffer) {
        let theme = state.theme
        let size = Size(width: min(60, state.size.width - 4), height: min(state.size.height - 2, 9))
        let inner = DialogFrame.draw(title: "Operator", size: size, theme: theme, over: area(state), clearing: panes(state), into: &buffer)
        let y = DialogFrame.paragraph(action.question.displaySafe, in: inner, y: inner.y + 1, style: theme[.text].adding(.bold), into: &buffer) + 1
        DialogFrame.paragraph(action.consequence, in: inner, y: y, style: theme[.muted], into: &buffer)
    }

    static func drawChooseIdentity(name: String, identities: [LinkedIdentity], selection: Int, state: BoardState, into buffer: inout Buffer) {
        let theme = state.theme
        let size = Size(width: min(60, state.size.width - 4), height: min(state.size.height - 2, identities.count + 6))
        let inner = DialogFrame.draw(title: "Disconnect which identity of \(name.displaySafe)?", size: size, theme: theme, over: area(state), clearing: panes(state), into: &buffer)
        let y = IdentityList.draw(identities, selection: selection, theme: theme, in: inner, y: inner.y + 1, into: &buffer)
        DialogFrame.paragraph("It is forgotten at every station and its tokens revoked.", in: inner, y: y + 1, style: theme[.muted], into: &buffer)
    }
}

/// The board's keys, from the same tables that dispatch them.
enum BoardHelp {
    static func lines(_ state: BoardState) -> [HelpPanel.Line] {
        var lines = BoardBindings.main.bindings.map { HelpPanel.Line.key($0.keyText, $0.help) }
        for (title, map) in [("Filter", FilterLine.keys), ("Before an action", BoardBindings.confirm)] {
            lines += [.blank, .title(title)] + map.bindings.filter(\.inKeyBar).map { HelpPanel.Line.key($0.keyText, $0.help) }
        }
        return lines
    }

    static func rowsShown(in state: BoardState) -> Int { max(1, HelpPanel.rowsShown(lines: lines(state).count, screen: state.size)) }

    static func draw(_ state: BoardState, scroll: Int, into buffer: inout Buffer) {
        HelpPanel.draw(lines(state), scroll: scroll, theme: state.theme, screen: state.size, over: BoardDialogs.area(state), clearing: BoardDialogs.panes(state), into: &buffer)
    }
}
