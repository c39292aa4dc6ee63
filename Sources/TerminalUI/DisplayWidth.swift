/// How many terminal columns text takes: 0 for combining marks and other
/// zero-width characters, 2 for East Asian wide and emoji, else 1.
public enum DisplayWidth {
    /// The columns one grapheme cluster takes.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F { return first.value < 0x20 ? 0 : 1 }
        if first.value < 0xA0 { return 0 }
        // An emoji presentation selector widens the cluster.
        if scalars.contains(where: { $0.value == 0xFE0F }), first.properties.isEmoji { return 2 }
        return scalarWidth(first)
    }

    /// The columns a grapheme cluster given as a string takes.
    public static func of(_ symbol: String) -> Int {
        guard let first = symbol.first else { return 0 }
        return of(first)
    }

    /// The columns a whole string takes.
    public static func of(text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// The width of a single scalar standing first in its cluster.
    public static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        let v = scalar.value
        for range in wideRanges where range.contains(v) { return 2 }
        return 1
    }

    /// East Asian Wide and Fullwidth blocks (coarse; refined by the table).
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x2FFFD,
        0x30000...0x3FFFD,
    ]
}

extension String {
    /// The columns this string takes on a terminal.
    public var displayWidth: Int { DisplayWidth.of(text: self) }

    /// The longest prefix at most `width` columns wide; ends with `ellipsis`
    /// when anything was cut.
    public func truncated(toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        if displayWidth <= width { return self }
        let room = width - ellipsis.displayWidth
        var result = "", used = 0
        for character in self {
            let w = DisplayWidth.of(character)
            if used + w > room { break }
            result.append(character)
            used += w
        }
        return room >= 0 ? result + ellipsis : result
    }

    /// The string padded with spaces to `width` columns (truncated if longer).
    public func padded(toWidth width: Int) -> String {
        let fitted = truncated(toWidth: width)
        return fitted + String(repeating: " ", count: max(0, width - fitted.displayWidth))
    }
}
