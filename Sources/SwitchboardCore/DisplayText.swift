extension String {
    /// The string made safe to show in a terminal: escape sequences removed
    /// whole (CSI `ESC [ … final`, OSC/DCS/APC/PM/SOS up to their
    /// terminator, and two-byte `ESC x`), then every remaining control
    /// character (C0, C1, DEL) and bidirectional control dropped, so a
    /// provider's display name cannot move the cursor, change colours,
    /// retitle the window or reorder the screen.
    public var displaySafe: String {
        var scalars = String.UnicodeScalarView()
        var iterator = unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar.value {
            case 0x1B:
                Self.skipEscape(&iterator)
            case 0x9B:
                Self.skipCSI(&iterator)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F:
                Self.skipString(&iterator)
            default:
                if !scalar.isTerminalControl { scalars.append(scalar) }
            }
        }
        return String(scalars)
    }

    /// After ESC: a CSI, a control string, or one more character.
    private static func skipEscape(_ iterator: inout String.UnicodeScalarView.Iterator) {
        guard let next = iterator.next() else { return }
        switch next {
        case "[": skipCSI(&iterator)
        case "]", "P", "X", "^", "_": skipString(&iterator)
        default: break
        }
    }

    /// Parameters and intermediates up to the final byte (0x40–0x7E).
    private static func skipCSI(_ iterator: inout String.UnicodeScalarView.Iterator) {
        while let scalar = iterator.next() {
            if (0x40...0x7E).contains(scalar.value) || scalar.value < 0x20 && scalar.value != 0x1B { return }
        }
    }

    /// A control string ends at BEL, ST (ESC \) or the 8-bit ST.
    private static func skipString(_ iterator: inout String.UnicodeScalarView.Iterator) {
        while let scalar = iterator.next() {
            switch scalar.value {
            case 0x07, 0x9C: return
            case 0x1B:
                _ = iterator.next()
                return
            default: continue
            }
        }
    }
}

extension Unicode.Scalar {
    /// Whether this scalar controls the terminal or the text's direction
    /// rather than showing a character: C0 (U+0000–U+001F), DEL, C1
    /// (U+0080–U+009F), and the bidirectional marks, embeddings, overrides
    /// and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
    /// Text from outside must not bring one to the screen.
    public var isTerminalControl: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// Whether any scalar is a terminal or bidirectional control (`isTerminalControl`).
    public var containsTerminalControl: Bool { unicodeScalars.contains { $0.isTerminalControl } }

    /// JSON text with every terminal or bidirectional control written as a
    /// `\uXXXX` escape: the same JSON value, but no such raw character
    /// reaches the output. Only for JSON text, where these characters can
    /// appear only inside strings.
    public var jsonEscapingTerminalControls: String {
        guard containsTerminalControl else { return self }
        var result = ""
        for scalar in unicodeScalars {
            if scalar.isTerminalControl {
                let hex = String(scalar.value, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
