import TerminalUI

/// How a PIN is typed, in every dialog that asks for one (the chooser's
/// and a station's PIN dialog, the board's operator PIN): digits only, 4 to
/// 12 of them, never drawn (only counted). One rule, so that every screen
/// takes the PINs the store takes.
public enum PINEntry {
    /// The fewest and the most digits a PIN has.
    public static let minimumDigits = 4, maximumDigits = 12
    /// What a person is told of a PIN too short to check.
    public static let rule = "A PIN has 4 to 12 digits."

    /// `digits` with `key` typed; nil when the key is no digit or the PIN is full.
    public static func typing(_ key: Key, after digits: String) -> String? {
        guard case .character(let c) = key, c.isASCII, c.isNumber, digits.count < maximumDigits else { return nil }
        return digits + String(c)
    }

    /// `digits` less the last one.
    public static func erasing(_ digits: String) -> String { String(digits.dropLast()) }

    /// Whether `digits` are enough to be checked.
    public static func isComplete(_ digits: String) -> Bool { digits.count >= minimumDigits }
}

/// How a help overlay scrolls, the chooser's and the board's: a line or a
/// page at a time within `0...most`.
public enum HelpScroll {
    /// Where `scroll` goes for `command`; nil for any other key, which closes help.
    public static func scrolled(_ scroll: Int, by command: DialogCommand?, page: Int, most: Int) -> Int? {
        let scroll = min(scroll, max(0, most)), page = max(1, page)
        switch command {
        case .up: return max(0, scroll - 1)
        case .down: return min(max(0, most), scroll + 1)
        case .pageUp: return max(0, scroll - page)
        case .pageDown: return min(max(0, most), scroll + page)
        default: return nil
        }
    }
}

/// What `t` says, in the chooser and the board alike, of the theme it
/// moved to: its name, and how to keep it.
public enum ThemeCycle {
    public static func said(_ name: String) -> String {
        "Theme \(name.displaySafe): theme = \"\(name.displaySafe)\" in config.toml keeps it."
    }
}
