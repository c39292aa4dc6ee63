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
        let lines = Self.rows(signIn, width: inner.width)
        // The newest exchanges, the last rows that fit; or, scrolled up, from the row kept.
        let top = Self.top(signIn, rows: lines.count, shown: inner.height)
        for (offset, row) in lines.dropFirst(top).prefix(inner.height).enumerated() {
            // A first row that carries on a line begun above it says so.
            let text = offset == 0 && row.continues ? "  …" + row.text.dropFirst(2) : row.text
            buffer.write(text.truncated(toWidth: inner.width), x: inner.x, y: inner.y + offset, style: theme[row.role])
        }
        // What is scrolled away, on the frame: older above, newer below.
        if top > 0 { buffer.write(" ↑ \(top) more ", x: rect.maxX - 14, y: rect.y, style: theme[.muted]) }
        let below = lines.count - top - inner.height
        if below > 0 { buffer.write(" ↓ \(below) newer ", x: rect.maxX - 16, y: rect.maxY - 1, style: theme[.muted]) }
    }

    /// One row of the inspector: its text, its look, and whether it carries
    /// on a detail wrapped from the row before.
    struct Row {
        let text: String
        let role: ThemeRole
        var continues = false
    }

    /// The inspector's rows at `width` columns: each entry's headline, then
    /// its details wrapped and indented.
    static func rows(_ signIn: SignInDialog, width: Int) -> [Row] {
        var rows: [Row] = []
        for entry in signIn.trace {
            rows.append(Row(text: entry.headline.displaySafe, role: role(of: entry)))
            for detail in entry.details {
                // Room for the "…" a cut first row begins with.
                let wrapped = DialogFrame.wrap(detail.displaySafe, width: width - 3)
                rows += wrapped.enumerated().map { Row(text: "  " + $0.element, role: .muted, continues: $0.offset > 0) }
            }
        }
        return rows.isEmpty ? [Row(text: "Nothing sent yet.", role: .muted)] : rows
    }

    /// The first row shown: the one kept when scrolled up, else the newest rows'.
    static func top(_ signIn: SignInDialog, rows: Int, shown: Int) -> Int {
        let newest = max(0, rows - shown)
        return min(signIn.inspectorTop ?? newest, newest)
    }

    /// The inspector's rows and how many show, for scrolling; nil when it is not shown.
    static func extent(_ state: AppState, _ signIn: SignInDialog) -> (rows: Int, shown: Int)? {
        guard let area = state.inspectorArea else { return nil }
        let inner = area.inset().inset(dx: 1, dy: 0)
        guard inner.width > 4, inner.height > 0 else { return nil }
        return (Self.rows(signIn, width: inner.width).count, inner.height)
    }

    /// Scrolls by `rows` (negative: up, to older exchanges) by the list
    /// rule (`clampScroll`); back at the newest rows, it follows them again.
    static func scroll(_ signIn: inout SignInDialog, by rows: Int, state: AppState) {
        guard let size = Self.extent(state, signIn) else { return }
        let count = size.rows, shown = size.shown
        var scroll = Self.top(signIn, rows: count, shown: shown)
        var edge = rows < 0 ? scroll + rows : scroll + shown - 1 + rows
        clampScroll(selection: &edge, scroll: &scroll, count: count, shown: shown)
        signIn.inspectorTop = scroll >= count - shown ? nil : scroll
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
