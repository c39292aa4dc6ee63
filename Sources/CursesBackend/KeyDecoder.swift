import CNcurses
import TerminalUI

/// Turns what `wget_wch` returned into an input event.
enum KeyDecoder {
    /// - Parameters:
    ///   - result: `OK` for a character, `KEY_CODE_YES` for a function key.
    ///   - code: the character or key code.
    ///   - mouse: reads the pending mouse event after `KEY_MOUSE`.
    static func event(result: Int32, code: Int32, mouse: () -> MouseEvent?) -> InputEvent? {
        if result == KEY_CODE_YES {
            switch code {
            case KEY_UP: return .key(.up)
            case KEY_DOWN: return .key(.down)
            case KEY_LEFT: return .key(.left)
            case KEY_RIGHT: return .key(.right)
            case KEY_HOME: return .key(.home)
            case KEY_END: return .key(.end)
            case KEY_PPAGE: return .key(.pageUp)
            case KEY_NPAGE: return .key(.pageDown)
            case KEY_BACKSPACE: return .key(.backspace)
            case KEY_DC: return .key(.delete)
            case KEY_ENTER: return .key(.enter)
            case KEY_BTAB: return .key(.backTab)
            case KEY_MOUSE: return mouse().map(InputEvent.mouse)
            case KEY_RESIZE: return nil  // reported from SIGWINCH, with the new size
            default:
                for n in 1...12 where code == sb_key_f(Int32(n)) { return .key(.function(n)) }
                return nil
            }
        }
        switch code {
        case 9: return .key(.tab)
        case 10, 13: return .key(.enter)
        case 27: return .key(.escape)
        case 8, 127: return .key(.backspace)
        case 1...26: return .key(.control(Character(Unicode.Scalar(UInt8(code) + 96))))
        case 0, 28...31: return nil
        default:
            guard let scalar = Unicode.Scalar(UInt32(bitPattern: code)) else { return nil }
            return .key(.character(Character(scalar)))
        }
    }
}
