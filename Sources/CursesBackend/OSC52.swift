/// The escape sequence that asks a terminal to put text on the clipboard:
/// `ESC ] 52 ; c ; <base64> BEL`. xterm, kitty, WezTerm, iTerm2 and foot
/// honour it; tmux passes it on when its `set-clipboard` option is `on`.
public enum OSC52 {
    /// The bytes that copy `text` to the clipboard.
    public static func sequence(copying text: String) -> [UInt8] {
        Array("\u{1B}]52;c;".utf8) + base64(Array(text.utf8)) + [0x07]
    }

    /// Standard base64 with padding (RFC 4648 §4).
    public static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let b0 = UInt32(bytes[i])
            let b1 = n > 1 ? UInt32(bytes[i + 1]) : 0
            let b2 = n > 2 ? UInt32(bytes[i + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(n > 1 ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(n > 2 ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return out
    }
}
