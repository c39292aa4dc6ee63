import TerminalUI

/// The tour's caption: one line above the key bar, over everything, saying
/// what the step shows, or whose turn it is.
enum TourCaption {
    /// The caption's row while on tour; nil otherwise.
    static func rect(_ state: AppState) -> Rect? {
        guard state.tour != nil, ScreenLayout(state.size) != nil else { return nil }
        return Rect(x: 0, y: state.size.height - 2, width: state.size.width, height: 1)
    }

    /// The caption on the left; how the chooser changes hands on the right, when both fit.
    static func draw(_ state: AppState, into buffer: inout Buffer) {
        guard let rect = rect(state), let caption = state.tourCaption else { return }
        let style = state.theme[.statusBar]
        buffer.fill(rect, style: style)
        let text = " " + caption.displaySafe
        let hint = state.tourHint.map { $0 + " " } ?? ""
        let fits = text.displayWidth + 2 + hint.displayWidth <= rect.width
        buffer.write(text.truncated(toWidth: rect.width - 1), x: rect.x, y: rect.y, style: style.adding(.bold))
        if fits, !hint.isEmpty { buffer.write(hint, x: rect.maxX - hint.displayWidth, y: rect.y, style: style) }
    }
}
