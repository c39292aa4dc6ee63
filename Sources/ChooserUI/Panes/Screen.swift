import TerminalUI

/// Draws the whole chooser for a state into a fresh cell buffer. Each pane
/// draws its own part from its own slice of the state.
public enum Screen {
    public static func draw(_ state: AppState) -> Buffer {
        var buffer = Buffer(size: state.size, fill: Cell(" ", style: state.theme[.text]))
        guard let layout = ScreenLayout(state.size) else {
            TooSmall.draw(state, into: &buffer)
            return buffer
        }
        StatusBar.draw(state, in: layout.statusBar, into: &buffer)
        AccountsPane.draw(state, layout: layout, into: &buffer)
        GuidePane.draw(state, layout: layout, into: &buffer)
        if let dialog = state.dialog {
            switch dialog {
            case .signIn(let signIn): SignInDialogView.draw(signIn, state: state, into: &buffer)
            case .conflict(let conflict): ConflictDialogView.draw(conflict, state: state, into: &buffer)
            case .disconnect(let confirm): DisconnectDialogView.draw(confirm, state: state, into: &buffer)
            case .pin(let pin): PINDialogView.draw(pin, state: state, into: &buffer)
            case .help: HelpOverlay.draw(state, into: &buffer)
            }
        }
        let items = state.dialogKeys.map(\.keyBarItems) ?? Bindings.main.keyBarItems
        buffer.drawKeyBar(items, in: layout.keyBar, keyStyle: state.theme[.keyBarKey], labelStyle: state.theme[.keyBarLabel])
        Toasts.draw(state, above: layout.keyBar, into: &buffer)
        return buffer
    }
}

/// Shown instead of everything when the terminal is below the minimum.
enum TooSmall {
    static func draw(_ state: AppState, into buffer: inout Buffer) {
        let minimum = ScreenLayout.minimum
        let lines = [
            "Switchboard needs a terminal of at least \(minimum.width)×\(minimum.height).",
            "This one is \(state.size.width)×\(state.size.height): enlarge it to go on.",
            "q quits.",
        ]
        let top = max(0, (state.size.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            // Wrap words onto further rows when even one line does not fit.
            let x = max(0, (state.size.width - line.displayWidth) / 2)
            buffer.write(line, x: x, y: top + offset, style: offset == 0 ? state.theme[.statusWarning] : state.theme[.text])
        }
    }
}

/// The bar along the top: who is active in this session, and the session.
enum StatusBar {
    static func draw(_ state: AppState, in rect: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        buffer.fill(rect, style: theme[.statusBar])
        buffer.write(" Switchboard", x: rect.x, y: rect.y, style: theme[.statusBar].adding(.bold))
        let session = "⌂ \(state.session.description.displaySafe) "
        var who: [(String, Style)]
        switch state.active {
        case .anonymous:
            who = [("○ Anonymous", theme[.statusBar])]
        case .account(let account):
            let providers = account.providers.map(\.rawValue).joined(separator: " · ")
            who = [("● " + account.name.displaySafe, theme[.statusActive]), ("  " + providers.displaySafe, theme[.statusBar])]
        }
        who.append(("   " + session, theme[.statusBar]))
        let total = who.reduce(0) { $0 + $1.0.displayWidth }
        let room = rect.width - 14
        var x = rect.maxX - min(total, room)
        if total > room {
            // Narrow: keep the name, shorten the rest.
            who = [(who[0].0.truncated(toWidth: room), who[0].1)]
            x = rect.maxX - who[0].0.displayWidth - 1
        }
        for (text, style) in who { x += buffer.write(text, x: x, y: rect.y, style: style) }
    }
}
