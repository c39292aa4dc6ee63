import CNcurses
import TerminalUI
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A foreground and a background as curses colour numbers (-1: default).
struct ColorPair: Hashable {
    let foreground: Int32
    let background: Int32
}

extension CursesTerminal {
    /// Shows `buffer`: writes only the cells that differ from the frame drawn
    /// before, in runs of one style, then one `doupdate` (which itself sends
    /// only what differs from the screen). The first frame, a frame of a new
    /// size and the frame after `invalidate()` clear and repaint everything.
    /// Cells beyond the terminal's edge are left out.
    public func draw(_ buffer: Buffer) {
        guard isRunning, !isHandedOver else { return }
        let standard = sb_stdscr()
        let rows = Int(sb_lines()), columns = Int(sb_cols())
        let previous = lastFrame?.size == buffer.size ? lastFrame : nil
        if previous == nil {
            werase(standard)
            clearok(sb_curscr(), true)
        }
        var run: [wchar_t] = []
        var runStart = (x: 0, y: 0), runEnd = 0
        var runStyle = Style.plain
        func flush() {
            guard !run.isEmpty else { return }
            apply(runStyle)
            _ = mvwaddnwstr(standard, Int32(runStart.y), Int32(runStart.x), run, Int32(run.count))
            run.removeAll(keepingCapacity: true)
        }
        for change in buffer.changes(from: previous) where change.y < rows && change.x < columns {
            if change.y != runStart.y || change.x != runEnd || change.cell.style != runStyle {
                flush()
                runStart = (change.x, change.y)
                runStyle = change.cell.style
            }
            if isUTF8, columns - change.x >= 2, let cluster = Self.wholeCluster(of: change.cell) {
                // A cell curses cannot take through a string: on its own.
                flush()
                apply(change.cell.style)
                _ = sb_put_cluster(standard, Int32(change.y), Int32(change.x), cluster, Int32(cluster.count))
                runEnd = -1
                continue
            }
            runEnd = change.x + Self.appendGlyph(of: change.cell, room: columns - change.x, utf8: isUTF8, to: &run)
        }
        flush()
        wnoutrefresh(standard)
        doupdate()
        lastFrame = buffer
    }

    /// Makes the next `draw(_:)` clear the screen and repaint it all, as
    /// after Ctrl-L or when something else wrote to the terminal.
    public func invalidate() {
        lastFrame = nil
    }

    private func apply(_ style: Style) {
        _ = sb_wattr_set(sb_stdscr(), Self.cursesAttributes(style.attributes), pair(for: style))
    }

    /// The curses attributes for `attributes` (colours aside).
    public nonisolated static func cursesAttributes(_ attributes: TextAttributes) -> attr_t {
        var result = sb_a_normal()
        if attributes.contains(.bold) { result |= sb_a_bold() }
        if attributes.contains(.dim) { result |= sb_a_dim() }
        if attributes.contains(.italic) { result |= sb_a_italic() }
        if attributes.contains(.underline) { result |= sb_a_underline() }
        if attributes.contains(.reverse) { result |= sb_a_reverse() }
        return result
    }

    /// The colour pair for `style`'s colours, allocated the first time.
    private func pair(for style: Style) -> Int32 {
        guard colors >= 8 else { return 0 }
        var key = ColorPair(
            foreground: Self.colorNumber(style.foreground, colors: colors),
            background: Self.colorNumber(style.background, colors: colors))
        if !hasDefaultColors {  // pair 0 is then white on black
            key = ColorPair(
                foreground: key.foreground < 0 ? 7 : key.foreground, background: key.background < 0 ? 0 : key.background)
            if key == ColorPair(foreground: 7, background: 0) { return 0 }
        }
        if key == ColorPair(foreground: -1, background: -1) { return 0 }
        if let known = pairs[key] { return known }
        // alloc_pair reuses the least recently used pair when all are taken.
        if pairs.count >= Int(sb_color_pairs()) - 1 { pairs.removeAll() }
        let number = alloc_pair(key.foreground, key.background)
        guard number > 0 else { return 0 }
        pairs[key] = number
        return number
    }

    /// The curses colour number for `color` on a terminal of `colors`
    /// colours: -1 for the default; a palette entry it lacks becomes the
    /// nearest of its 16 (or 8) basic colours by xterm's RGB values, a grey
    /// the nearest grey (black, white, and with 16 the two bright forms);
    /// fewer than 256 colours (88) count as 16.
    /// A safety net: themes reduced with `Theme.reduced(toColors:)` (which
    /// also keeps middle greys readable) never need it.
    nonisolated static func colorNumber(_ color: Color, colors: Int) -> Int32 {
        guard case .palette(let index) = color, colors >= 8 else { return -1 }
        // 88-colour terminals have another cube: only their first 16 are safe.
        let safe = colors >= 256 ? 256 : colors >= 16 ? 16 : 8
        if Int(index) < safe { return Int32(index) }
        let rgb = Palette.rgb(index)
        guard rgb.red == rgb.green, rgb.green == rgb.blue else {
            return Int32(Palette.nearest(to: rgb, among: 0...(colors >= 16 ? 15 : 7)))
        }
        let greys: [UInt8] = colors >= 16 ? [0, 8, 7, 15] : [0, 7]
        func distance(_ grey: UInt8) -> Int { abs(Int(Palette.rgb(grey).red) - Int(rgb.red)) }
        return Int32(greys.min { distance($0) < distance($1) }!)
    }

    /// The characters of an emoji ZWJ sequence (👨‍👩‍👧) that curses can
    /// hold in one cell — at most five, the first two columns wide to
    /// `wcwidth`, as the buffer says — or nil for any other cell, which
    /// `appendGlyph` handles. Strings given to curses split such a
    /// sequence into several cells; one cell keeps it whole, so a terminal
    /// that joins the sequence shows one glyph two columns wide.
    nonisolated static func wholeCluster(of cell: Cell) -> [wchar_t]? {
        let scalars = cell.symbol.unicodeScalars
        guard cell.width == 2, scalars.count > 1, scalars.count <= 5, scalars.contains("\u{200D}"),
              let first = scalars.first, wcwidth(wchar_t(bitPattern: first.value)) == 2,
              scalars.allSatisfy({ $0.value >= 0x20 && !(0x7F..<0xA0).contains($0.value) })
        else { return nil }
        return scalars.map { wchar_t(bitPattern: $0.value) }
    }

    /// Appends to `characters` what to give curses for `cell`, so that
    /// curses, the terminal and the buffer agree on its width, and returns
    /// that width (`room`: the columns left on the row). A grapheme cluster
    /// keeps its combining marks (curses holds five characters a cell).
    /// Where curses' width (the C library's `wcwidth` of the first
    /// character) differs from the buffer's — an emoji made wide by U+FE0F,
    /// a flag — the cell shows its first character padded with a space (or
    /// U+FFFD), so the rest of the row stays in place.
    nonisolated static func appendGlyph(of cell: Cell, room: Int, utf8: Bool, to characters: inout [wchar_t]) -> Int {
        let space = wchar_t(0x20)
        let width = cell.width
        let symbol = cell.symbol
        var scalars = symbol.unicodeScalars.makeIterator()
        guard let first = scalars.next(), width > 0, width <= room, first.value >= 0x20,
            !(0x7F..<0xA0).contains(first.value)
        else {
            characters.append(space)  // nothing, a control character, or no room for a wide one
            return 1
        }
        let base = wchar_t(bitPattern: first.value)
        if first.value < 0x7F, symbol.utf8.count == 1 {  // one ASCII character: the common case
            characters.append(base)
            return 1
        }
        let cursesWidth = Int(wcwidth(base))
        if cursesWidth == width {
            characters.append(base)
            var marks = 0
            while marks < 4, let scalar = scalars.next(), scalar.value != 0x200D,
                wcwidth(wchar_t(bitPattern: scalar.value)) == 0
            {
                characters.append(wchar_t(bitPattern: scalar.value))
                marks += 1
            }
        } else if cursesWidth == 1, width == 2 {
            characters += [base, space]
        } else {
            characters.append(wchar_t(utf8 ? 0xFFFD : 0x3F))
            if width == 2 { characters.append(space) }
        }
        return width
    }
}
