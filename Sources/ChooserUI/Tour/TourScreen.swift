import ScreenKit
import TerminalUI

/// The tour's screen: the chooser's, with the caption on the row it keeps
/// above the key bar, saying what the step shows, or whose turn it is.
public enum TourScreen {
    public static func draw(_ tour: Tour) -> Buffer {
        var buffer = Screen.draw(tour.chooser)
        drawCaption(tour, into: &buffer)
        return buffer
    }

    /// The caption's row; nil when the terminal is too small to show the chooser.
    static func rect(_ tour: Tour) -> Rect? {
        let size = tour.chooser.size
        guard ScreenLayout(size) != nil else { return nil }
        return Rect(x: 0, y: size.height - 2, width: size.width, height: 1)
    }

    /// The caption on the left; how the chooser changes hands on the right, when both fit.
    private static func drawCaption(_ tour: Tour, into buffer: inout Buffer) {
        guard let rect = rect(tour), let caption = tour.caption else { return }
        let style = tour.chooser.theme[.statusBar]
        buffer.fill(rect, style: style)
        let text = " " + caption.displaySafe
        let hint = tour.hint.map { $0 + " " } ?? ""
        let fits = text.displayWidth + 2 + hint.displayWidth <= rect.width
        buffer.write(text.truncated(toWidth: rect.width - 1), x: rect.x, y: rect.y, style: style.adding(.bold))
        if fits, !hint.isEmpty { buffer.write(hint, x: rect.maxX - hint.displayWidth, y: rect.y, style: style) }
    }
}
