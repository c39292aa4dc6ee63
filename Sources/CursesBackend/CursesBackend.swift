import CNcurses
import TerminalUI

/// Placeholder namespace; the backend is being built.
public enum CursesBackendInfo {
    /// The ncurses version the program links.
    public static var version: String { String(cString: curses_version()) }
}
