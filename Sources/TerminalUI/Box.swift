extension Buffer {
    /// Draws a rounded-corner frame on the edge of `rect` with an optional
    /// title in its top border, and returns the area inside it.
    @discardableResult
    public mutating func drawBox(_ rect: Rect, title: String? = nil, style: Style = .plain, titleStyle: Style? = nil) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        let horizontal = String(repeating: "─", count: rect.width - 2)
        write("┌" + horizontal + "┐", x: rect.x, y: rect.y, style: style)
        for y in rect.y + 1..<rect.maxY - 1 {
            write("│", x: rect.x, y: y, style: style)
            write("│", x: rect.maxX - 1, y: y, style: style)
        }
        write("└" + horizontal + "┘", x: rect.x, y: rect.maxY - 1, style: style)
        if let title, rect.width > 4 {
            let text = " " + title.truncated(toWidth: rect.width - 6) + " "
            write(text, x: rect.x + 1, y: rect.y, style: titleStyle ?? style)
        }
        return rect.inset()
    }
}
