import ScreenKit
import SwitchboardCore
import TerminalUI

/// The sign-in dialog, one screen per phase and per outcome.
enum SignInDialogView {
    static func draw(_ dialog: SignInDialog, state: AppState, into buffer: inout Buffer) {
        let providerName = dialog.provider?.name ?? "a provider"
        let title = switch dialog.mode {
        case .signIn: dialog.provider == nil ? "Add an account" : "Sign in with \(providerName)"
        case .link: "Link \(providerName) to \(state.active.account?.name.displaySafe ?? "the active account")"
        }
        let wanted = Size(width: min(78, state.size.width - 4), height: state.dialogArea.height)
        switch dialog.phase {
        case .choosing(let selection):
            let inner = DialogFrame.draw(title: title, size: Size(width: min(60, wanted.width), height: min(wanted.height, dialog.providers.count + 6)), state: state, into: &buffer)
            choosing(dialog, selection: selection, state: state, in: inner, into: &buffer)
        case .continuing(let people, let selection):
            let inner = DialogFrame.draw(title: title, size: Size(width: min(60, wanted.width), height: min(wanted.height, people.count + 7)), state: state, into: &buffer)
            continuing(people, selection: selection, providerName: providerName, state: state, in: inner, into: &buffer)
        case .requesting:
            let inner = DialogFrame.draw(title: title, size: Size(width: min(60, wanted.width), height: min(wanted.height, height(of: dialog))), state: state, into: &buffer)
            buffer.write("Asking \(providerName) for a code…".truncated(toWidth: inner.width), x: inner.x, y: inner.y + 1, style: state.theme[.text])
        case .waiting(let code):
            let inner = DialogFrame.draw(title: title, size: Size(width: wanted.width, height: min(wanted.height, height(of: dialog))), state: state, into: &buffer)
            waiting(code, providerName: providerName, state: state, in: inner, into: &buffer)
        case .finished(let ending):
            let inner = DialogFrame.draw(title: title, size: Size(width: min(64, wanted.width), height: min(wanted.height, height(of: dialog))), state: state, into: &buffer)
            finished(ending, providerName: providerName, localDemo: dialog.provider?.isLocalDemo == true, state: state, in: inner, into: &buffer)
        }
    }

    /// The rows the dialog takes, when they fit, once it talks to the
    /// provider: the inspector has the rest of the screen.
    static func height(of dialog: SignInDialog) -> Int {
        switch dialog.phase {
        case .choosing(_): dialog.providers.count + 6
        case .continuing(let people, _): people.count + 7
        case .requesting: 5
        // Tall enough for the text, and for the QR code when it shows.
        case .waiting(let code): max(code.qrRows.count, 17) + 2
        case .finished: 10
        }
    }

    private static func choosing(_ dialog: SignInDialog, selection: Int, state: AppState, in inner: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        buffer.write("Choose a provider:", x: inner.x, y: inner.y + 1, style: theme[.text])
        for (index, provider) in dialog.providers.enumerated() {
            let y = inner.y + 3 + index
            guard y < inner.maxY else { break }
            let selected = index == selection
            let style = selected ? theme[.accountSelected] : theme[.text]
            if selected { buffer.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: style) }
            let used = buffer.write((selected ? "▸ " : "  ") + provider.name.displaySafe, x: inner.x, y: y, style: selected ? style.adding(.bold) : style)
            let note = provider.problem ?? (provider.id == "demo" ? "built in, works offline" : "")
            if !note.isEmpty {
                buffer.write(("  " + note.displaySafe).truncated(toWidth: inner.width - used), x: inner.x + used, y: y, style: selected ? style : theme[provider.problem == nil ? .muted : .statusWarning])
            }
        }
    }

    private static func continuing(
        _ people: [Account], selection: Int, providerName: String, state: AppState, in inner: Rect, into buffer: inout Buffer
    ) {
        let theme = state.theme
        buffer.write("\(providerName) is already signed in here:".truncated(toWidth: inner.width), x: inner.x, y: inner.y + 1, style: theme[.text])
        let rows = people.map { "Continue as \($0.name.displaySafe)" } + ["Sign in with a new code"]
        for (index, row) in rows.enumerated() {
            let y = inner.y + 3 + index + (index == people.count ? 1 : 0)
            guard y < inner.maxY else { break }
            DialogFrame.choice(row, selected: index == selection, bold: true, theme: theme, in: inner, y: y, into: &buffer)
        }
    }

    private static func waiting(_ code: WaitingCode, providerName: String, state: AppState, in inner: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        let qrWidth = code.qrRows.first?.displayWidth ?? 0, qrHeight = code.qrRows.count
        let showQR = qrWidth > 0 && inner.width >= qrWidth + 34 && inner.height >= qrHeight
        let textArea = showQR ? Rect(x: inner.x, y: inner.y, width: inner.width - qrWidth - 2, height: inner.height) : inner
        var y = inner.y + (inner.height >= 16 ? 1 : 0)
        y = DialogFrame.paragraph("On any device, open", in: textArea, y: y, style: theme[.text], into: &buffer)
        y = DialogFrame.paragraph(code.verificationURI.displaySafe, in: textArea.inset(dx: 1, dy: 0), y: y, style: theme[.title], into: &buffer)
        y = DialogFrame.paragraph("and enter the code:", in: textArea, y: y, style: theme[.text], into: &buffer)
        // The code in a box, letters spaced when that fits, else as it is,
        // wrapped inside the box when even that is too wide.
        let codeRoom = textArea.width - 5  // the box's indent, borders and padding
        let userCode = code.userCode.displaySafe
        let spaced = userCode.map(String.init).joined(separator: " ")
        let codeLines = DialogFrame.wrap(spaced.displayWidth <= codeRoom ? spaced : userCode, width: max(1, codeRoom))
        let box = Rect(x: textArea.x + 1, y: y + 1, width: (codeLines.map(\.displayWidth).max() ?? 0) + 4, height: codeLines.count + 2)
        if box.maxY <= inner.maxY {
            buffer.drawBox(box, style: theme[.code])
            for (row, line) in codeLines.enumerated() {
                buffer.write(line, x: box.x + 2, y: box.y + 1 + row, style: theme[.code])
            }
            y = box.maxY + 1
        } else {
            for line in codeLines where y < inner.maxY {
                buffer.write(line, x: textArea.x + 1, y: y, style: theme[.code], limit: textArea.width - 1)
                y += 1
            }
        }
        /// One line of the text column, when it is still inside the dialog.
        func line(_ text: String, style: Style) {
            if y < inner.maxY { buffer.write(text.truncated(toWidth: textArea.width), x: textArea.x, y: y, style: style) }
            y += 1
        }
        let left = state.now.distance(to: code.expiresAt)
        let remaining = Countdown.wholeSeconds(left)
        line("Expires in \(Countdown.text(left))", style: remaining < 30 ? theme[.statusWarning] : theme[.text])
        let spinner = ["◐", "◓", "◑", "◒"][code.polls % 4]
        let checks = code.polls == 1 ? "1 check" : "\(code.polls) checks"
        line("\(spinner) checking every \(code.interval) s · \(checks)", style: theme[.muted])
        if !showQR, qrWidth > 0 {
            // Dialog frame, padding, bars; and the inspector's fewest rows while it shows, which the dialog gives way to.
            let inspector = state.inspectorArea != nil
            let needed = Size(width: qrWidth + 42, height: qrHeight + 4 + (inspector ? AppState.inspectorRows : 0))
            let text = inspector
                ? "QR code hidden: enlarge to \(needed.width)×\(needed.height), or close the inspector (i)."
                : "QR code hidden: enlarge the terminal to \(needed.width)×\(needed.height) to see it."
            y = DialogFrame.paragraph(text, in: textArea, y: y, style: theme[.muted], into: &buffer)
        }
        y += 1
        if let server = code.demoServer {
            y = DialogFrame.paragraph("Demo: approve on that page, or in another terminal run", in: textArea, y: y, style: theme[.muted], into: &buffer)
            y = DialogFrame.paragraph(
                DemoApproval.command(userCode: code.userCode, server: server), in: textArea.inset(dx: 1, dy: 0), y: y, style: theme[.text], into: &buffer)
        }
        if showQR {
            let x = inner.maxX - qrWidth
            for (row, line) in code.qrRows.enumerated() {
                // Dark modules in the foreground: black on white in colour themes.
                buffer.write(line, x: x, y: inner.y + row, style: theme[.qrCode])
            }
        }
    }

    private static func finished(
        _ ending: SignInEnding, providerName: String, localDemo: Bool, state: AppState, in inner: Rect, into buffer: inout Buffer
    ) {
        let theme = state.theme
        let name = ending.accountName?.displaySafe ?? "you"
        let (headline, role, detail): (String, ThemeRole, String) = switch ending.outcome {
        case .approved where ending.linked: ("Linked \(providerName) to \(name).", .statusOK, "Either identity now signs in as \(name).")
        case .approved where ending.isNew: ("Welcome, \(name)!", .statusOK, "A new account was made and is active in this session.")
        case .approved: ("Welcome back, \(name).", .statusOK, "\(name) is active in this session.")
        case .denied: ("Sign-in was denied.", .statusError, "\(providerName) said no. Nothing changed here. Press r to try again.")
        case .expired: ("The code expired.", .statusWarning, "Nobody approved it in time. Press r for a new code.")
        case .cancelled: ("Cancelled.", .muted, "Nothing changed.")
        case .noAccount: ("\(providerName) has no account for you.", .statusError, "Create one there, then press r to try again.")
        case .multipleAccounts: ("\(providerName) offered several accounts.", .statusError, "Choose one at the provider, then press r.")
        case .invalidAccount(let why): ("\(providerName)'s answer cannot be used.", .statusError, why + " Press r to try again.")
        case .providerError(let why): ("\(providerName) reported an error.", .statusError, why + " Check its settings in config.toml, then press r.")
        case .offline(let why) where localDemo:
            ("Could not reach \(providerName).", .statusError,
             why + " It is a demo provider on this machine, not the network: is another program on its port? Press r to start it again.")
        case .offline(let why): ("Could not reach \(providerName).", .statusError, why + " Check the network, then press r.")
        }
        buffer.write(headline.truncated(toWidth: inner.width), x: inner.x, y: inner.y + 1, style: theme[role])
        DialogFrame.paragraph(detail.displaySafe, in: inner, y: inner.y + 3, style: theme[.text], into: &buffer)
    }
}
