import Glibc
import SwitchboardCore
import TerminalUI

/// Runs an `AccountPicker` on the controlling terminal (`/dev/tty`), in raw
/// mode, below the cursor: the lines it drew are erased when it ends and the
/// terminal's settings put back, whatever key ended it.
enum TerminalPicker {
    /// The account chosen, or nil when the person left; nil too when there
    /// is no terminal to open.
    static func run(_ picker: AccountPicker) -> AccountID?? {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard tty >= 0 else { return nil }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(tty, TCSAFLUSH, &raw) == 0 else { return nil }
        defer { _ = tcsetattr(tty, TCSAFLUSH, &saved) }
        var picker = picker
        var drawn = 0
        defer { erase(drawn, on: tty) }
        while true {
            drawn = draw(picker.lines(width: width(of: tty)), over: drawn, on: tty)
            guard let key = readKey(tty) else { return .some(nil) }
            switch picker.handle(key) {
            case .more: continue
            case .chose(let id): return .some(id)
            case .left: return .some(nil)
            }
        }
    }

    private static func width(of tty: Int32) -> Int {
        var size = winsize()
        return ioctl(tty, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 4 ? Int(size.ws_col) - 1 : 79
    }

    /// Draws `lines` from the query line down, over the `previous` lines
    /// drawn before; leaves the cursor at the query's end. Returns how many
    /// lines are on screen.
    private static func draw(_ lines: [String], over previous: Int, on tty: Int32) -> Int {
        var text = previous > 0 ? "\r" : ""
        for (index, line) in lines.enumerated() {
            text += (index == 0 ? "" : "\r\n") + line + "\u{1B}[K"
        }
        // Rows left over from a longer list before are cleared.
        if previous > lines.count { text += "\u{1B}[J" }
        if lines.count > 1 { text += "\u{1B}[\(lines.count - 1)A" }
        text += "\r\u{1B}[\(lines[0].displayWidth)C"
        write(text, to: tty)
        return lines.count
    }

    private static func erase(_ drawn: Int, on tty: Int32) {
        guard drawn > 0 else { return }
        write("\r\u{1B}[J", to: tty)
    }

    private static func write(_ text: String, to tty: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(tty, $0.baseAddress, $0.count) }
            if written > 0 { bytes = bytes.dropFirst(written) } else if written < 0 && errno == EINTR { continue } else { return }
        }
    }

    /// The next key: a UTF-8 character, a control byte, or an arrow's
    /// escape sequence (a lone Esc is told from one by the 50 ms after it).
    private static func readKey(_ tty: Int32) -> Key? {
        while true {
            guard let byte = readByte(tty, within: -1) else { return nil }
            if byte == 0x1B {
                guard let next = readByte(tty, within: 50) else { return .escape }
                guard next == UInt8(ascii: "["), let final = readByte(tty, within: 50) else { continue }
                switch final {
                case UInt8(ascii: "A"): return .up
                case UInt8(ascii: "B"): return .down
                default: continue
                }
            }
            switch byte {
            case 8, 127: return .backspace
            case 9: return .tab
            case 10, 13: return .enter
            case 1...26: return .control(Character(Unicode.Scalar(96 + byte)))
            case 0..<32: continue
            default: break
            }
            // A character of several bytes: its lead byte says how many follow.
            let count = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0
            var bytes = [byte]
            for _ in 0..<count { if let more = readByte(tty, within: 50) { bytes.append(more) } }
            guard let character = String(validating: bytes, as: UTF8.self)?.first else { continue }
            return .character(character)
        }
    }

    /// One byte, waiting at most `milliseconds` (-1: as long as it takes); nil at its end.
    private static func readByte(_ tty: Int32, within milliseconds: Int32) -> UInt8? {
        var wanted = pollfd(fd: tty, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&wanted, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            var byte: UInt8 = 0
            let count = Glibc.read(tty, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            return count == 1 ? byte : nil
        }
    }
}
