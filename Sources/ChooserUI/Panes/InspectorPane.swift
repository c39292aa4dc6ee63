import ScreenKit
import SwitchboardCore
import TerminalUI

extension AppState {
    /// The inspector's rectangle while the sign-in dialog shows it: the
    /// lower part of the screen between the bars, full width, below the
    /// rows the dialog takes (at least `inspectorRows` of them).
    public var inspectorArea: Rect? {
        guard inspectorShown, case .signIn(let signIn) = dialog, signIn.talksToProvider, ScreenLayout(size) != nil else { return nil }
        let body = bodyRows
        let height = max(Self.inspectorRows, body - SignInDialogView.height(of: signIn))
        return Rect(x: 0, y: 1 + body - height, width: size.width, height: height)
    }

    /// The rows between the bars (and above a layer's own rows).
    private var bodyRows: Int { size.height - 2 - surround.bottomRows }

    /// The fewest rows the inspector takes: the dialog gives way first.
    static let inspectorRows = 6

    /// Where dialogs are centred: between the bars, or above the inspector when it shows.
    var dialogArea: Rect {
        let body = Rect(x: 0, y: 1, width: size.width, height: bodyRows)
        guard let inspector = inspectorArea else { return body }
        return Rect(x: 0, y: 1, width: size.width, height: inspector.y - 1)
    }
}

extension SignInDialog {
    /// Whether the sign-in has reached the provider: asking for a code,
    /// waiting, or ended. Its inspector can show then.
    public var talksToProvider: Bool {
        switch phase {
        case .choosing, .continuing: false
        case .requesting, .waiting, .finished: true
        }
    }
}

/// The sign-in's inspector: each exchange with the provider as it happens,
/// newest at the bottom: the step and where it is specified, the HTTP
/// status, the time since the flow began, then what was sent (→) and what
/// came back (←), secrets as their length and a short hash.
enum InspectorPane {
    static func draw(_ signIn: SignInDialog, state: AppState, in rect: Rect, into buffer: inout Buffer) {
        let theme = state.theme
        buffer.fill(rect, style: theme[.dialog])
        let provider = signIn.provider?.name.displaySafe ?? "the provider"
        let inner = buffer.drawBox(rect, title: "Inspector · each exchange with \(provider)", style: theme[.borderFocused], titleStyle: theme[.dialogTitle])
            .inset(dx: 1, dy: 0)
        guard inner.width > 4, inner.height > 0 else { return }
        var rows: [(String, Style)] = []
        for entry in signIn.trace {
            rows.append((entry.headline.displaySafe, theme[role(of: entry)]))
            for detail in entry.details {
                rows += DialogFrame.wrap(detail.displaySafe, width: inner.width - 2).map { ("  " + $0, theme[.muted]) }
            }
        }
        if rows.isEmpty { rows = [("Nothing sent yet.", theme[.muted])] }
        // The newest exchanges: the last rows that fit.
        for (offset, (text, style)) in rows.suffix(inner.height).enumerated() {
            buffer.write(text.truncated(toWidth: inner.width), x: inner.x, y: inner.y + offset, style: style)
        }
    }

    /// How an entry's headline is coloured: answers that move the flow on
    /// in green, waiting as text, `slow_down` as a warning, failures as errors.
    private static func role(of entry: FlowTraceEntry) -> ThemeRole {
        switch (entry.status, entry.result) {
        case (nil, let result): result.hasPrefix("checked") ? .statusOK : result.hasPrefix("no answer") ? .statusError : .statusWarning
        case (_, "authorization_pending"): .text
        case (_, "slow_down"): .statusWarning
        case (let status?, _) where (200..<300).contains(status): .statusOK
        default: .statusError
        }
    }
}
