import CNcurses
import TerminalUI

/// Turns what `wget_wch` returned into an input event.
enum KeyDecoder {
    /// - Parameters:
    ///   - result: `OK` for a character, `KEY_CODE_YES` for a function key.
    ///   - code: the character or key code.
    ///   - mouse: reads the pending mouse event after `KEY_MOUSE`.
    /// - Returns: nil for what the program has no key for, and for
    ///   `KEY_RESIZE` (the terminal reports resizes with the new size).
    static func event(result: Int32, code: Int32, mouse: () -> MouseEvent?) -> InputEvent? {
        if result == KEY_CODE_YES {
            if code == KEY_MOUSE { return mouse().map(InputEvent.mouse) }
            return functionKey(code).map(InputEvent.key)
        }
        return character(UInt32(bitPattern: code)).map(InputEvent.key)
    }

    /// A character: control bytes become Enter, Tab, Escape, Backspace,
    /// `.control(letter)` or Ctrl-\\ (`.control("\\")`, which the terminal
    /// sends as a byte in raw mode); other C0 and C1 controls are dropped.
    static func character(_ value: UInt32) -> Key? {
        switch value {
        case 8, 127: return .backspace
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(96 + value))))
        case 28: return .control("\\")
        case 0, 29...31, 0x80..<0xA0: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// A curses key code; shifted arrows and keypad corners count as the
    /// plain keys.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP, KEY_SR: return .up
        case KEY_DOWN, KEY_SF: return .down
        case KEY_LEFT, KEY_SLEFT: return .left
        case KEY_RIGHT, KEY_SRIGHT: return .right
        case KEY_HOME, KEY_A1, KEY_SHOME: return .home
        case KEY_END, KEY_C1, KEY_SEND: return .end
        case KEY_PPAGE, KEY_A3, KEY_SPREVIOUS: return .pageUp
        case KEY_NPAGE, KEY_C3, KEY_SNEXT: return .pageDown
        case KEY_DC, KEY_SDC: return .delete
        case KEY_BACKSPACE: return .backspace
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        default:
            let f0 = sb_key_f(0)
            return code > f0 && code <= f0 + 63 ? .function(Int(code - f0)) : nil
        }
    }

    /// A mouse report: left button press and release, wheel up and down.
    static func mouse(state: mmask_t, x: Int32, y: Int32) -> MouseEvent? {
        let kind: MouseEvent.Kind
        switch sb_mouse_kind(state) {
        case 1: kind = .press
        case 2: kind = .release
        case 3: kind = .scrollUp
        case 4: kind = .scrollDown
        default: return nil
        }
        return MouseEvent(x: Int(x), y: Int(y), kind: kind)
    }
}
