import ScreenKit
import TerminalUI

/// Draws the whole chooser for a state into a fresh cell buffer. Each pane
/// draws its own part from its own slice of the state.
public enum Screen {
    public static func draw(_ state: AppState) -> Buffer {
        draw(state, layerDialog: nil, keyBar: nil)
    }

    /// The chooser with a layer's own dialog drawn over its panes and
    /// dialog (a station's operator menu), and that dialog's keys in the
    /// key bar; a toast takes the key bar's row while it shows.
    public static func draw(_ state: AppState, layerDialog: ((inout Buffer) -> Void)?, keyBar layerKeys: [KeyBarItem]?) -> Buffer {
        var buffer = Buffer(size: state.size, fill: Cell(" ", style: state.theme[.text]))
        guard let layout = state.layout else {
            TooSmall.draw(state, into: &buffer)
            return buffer
        }
        StatusBar.draw(state, in: layout.statusBar, into: &buffer)
        AccountsPane.draw(state, layout: layout, into: &buffer)
        GuidePane.draw(state, layout: layout, into: &buffer)
        if let dialog = state.dialog {
            switch dialog {
            case .signIn(let signIn):
                SignInDialogView.draw(signIn, state: state, into: &buffer)
                if let area = state.inspectorArea { InspectorPane.draw(signIn, state: state, in: area, into: &buffer) }
            case .conflict(let conflict): ConflictDialogView.draw(conflict, state: state, into: &buffer)
            case .disconnect(let confirm): DisconnectDialogView.draw(confirm, state: state, into: &buffer)
            case .pin(let pin): PINDialogView.draw(pin, state: state, into: &buffer)
            case .signInAgain(let again): SignInAgainDialogView.draw(again, state: state, into: &buffer)
            case .help(let scroll): HelpOverlay.draw(state, scroll: scroll, into: &buffer)
            }
        }
        layerDialog?(&buffer)
        buffer.drawKeyBar(
            layerKeys ?? state.keyBar, in: layout.keyBar, keyStyle: state.theme[.keyBarKey], labelStyle: state.theme[.keyBarLabel],
            dimStyle: state.theme[.keyBarLabel].adding(.dim))
        // The newest toast takes the key bar's row while it shows.
        Toasts.draw(state, in: layout.keyBar, into: &buffer)
        return buffer
    }
}

/// The bar along the top: who is active in this session, and the session.
enum StatusBar {
    static func draw(_ state: AppState, in rect: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        buffer.fill(rect, style: theme[.statusBar])
        let title = " " + (state.surround.title?.displaySafe ?? "Switchboard")
        var titleEnd = rect.x + buffer.write(title.truncated(toWidth: max(0, rect.width - 14)), x: rect.x, y: rect.y, style: theme[.statusBar].adding(.bold))
        let session = "⌂ \(state.session.description.displaySafe) "
        var who: [(String, Style)]
        switch state.active {
        case .anonymous:
            who = [("○ Anonymous", theme[.statusBar])]
        case .account(let account):
            let providers = account.providers.map(\.rawValue).joined(separator: " · ")
            who = [("● " + account.name.displaySafe, theme[.statusActive]), ("  " + providers.displaySafe, theme[.statusBar])]
        }
        let marker = ("   " + session, theme[.statusBar])
        let room = rect.width - 14
        let width = { (parts: [(String, Style)]) in parts.reduce(0) { $0 + $1.0.displayWidth } }
        if width(who + [marker]) > room {
            // Too long: the name gives way first (cut with …), then the
            // providers; the session marker stays while there is room for it.
            let name = who[0]
            let rest = Array(who.dropFirst())
            if room - width(rest + [marker]) >= 6 {
                who = [(name.0.truncated(toWidth: room - width(rest + [marker])), name.1)] + rest
            } else if room - width([marker]) >= 4 {
                who = [(name.0.truncated(toWidth: room - width([marker])), name.1)]
            } else {
                who = [(name.0.truncated(toWidth: room), name.1)]
            }
        }
        let showsMarker = width(who + [marker]) <= room
        if showsMarker { who.append(marker) }
        var x = rect.maxX - width(who) - (showsMarker ? 0 : 1)
        let whoStart = x
        for (text, style) in who { x += buffer.write(text, x: x, y: rect.y, style: style) }
        // A layer's warning, or a shared store's server away: said after the title, in full where there is room.
        if let warning = state.surround.warning {
            let room = whoStart - titleEnd - 2
            let notice = warning.map { "  ⚠ " + $0 }.first { $0.displayWidth <= room }
            if let notice { titleEnd += buffer.write(notice, x: titleEnd, y: rect.y, style: theme[.statusWarning]) }
        } else if state.storeOffline != nil {
            let room = whoStart - titleEnd - 2
            let notice = ["  ⚠ Station offline — retrying", "  ⚠ Offline — retrying", "  ⚠ Offline"].first { $0.displayWidth <= room }
            if let notice { titleEnd += buffer.write(notice, x: titleEnd, y: rect.y, style: theme[.statusWarning]) }
        } else if state.storeWaiting {
            let room = whoStart - titleEnd - 2
            let notice = ["  ⋯ waiting for the store", "  ⋯ waiting"].first { $0.displayWidth <= room }
            if let notice { titleEnd += buffer.write(notice, x: titleEnd, y: rect.y, style: theme[.statusBar].adding(.dim)) }
        }
        // A layer's clock: in the middle, or as near it as it clears both sides by two columns.
        if let clock = state.surround.clock {
            let lowest = titleEnd + 2, highest = whoStart - 2 - clock.displayWidth
            if lowest <= highest {
                let clockX = min(highest, max(lowest, rect.x + (rect.width - clock.displayWidth) / 2))
                buffer.write(clock, x: clockX, y: rect.y, style: theme[.statusBar].adding(.bold))
            }
        }
    }
}

extension TooSmall {
    static func draw(_ state: AppState, into buffer: inout Buffer) { draw(theme: state.theme, size: state.size, into: &buffer) }
}
