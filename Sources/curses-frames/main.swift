import CNcurses
import CursesBackend
import Foundation
import Store
import Services
import ChooserApp
import ChooserUI
import SwitchboardCore
import TerminalUI

// The anchor of `switchboard-bench tui`'s bytes figure: what ncurses itself
// sends for the chooser's "selection moves one row". It builds the state the
// chooser starts with (same database and session, from SWITCHBOARD_DATABASE
// and SWITCHBOARD_SESSION; default theme), takes the terminal exactly as the
// chooser does (a CursesTerminal: same modes), and draws each frame
// naively — every cell of every row through plain attribute and
// mvwaddnwstr calls, then one refresh — so that ncurses' own optimiser alone
// decides what to send. The first frame shows at once; the second after any
// byte arrives on standard input (the bench sends `j`); it ends after one
// more byte.

let environment = ProcessInfo.processInfo.environment
guard let path = environment["SWITCHBOARD_DATABASE"], let session = environment["SWITCHBOARD_SESSION"].flatMap(SessionKey.init) else {
    FileHandle.standardError.write(Data("curses-frames: set SWITCHBOARD_DATABASE and SWITCHBOARD_SESSION\n".utf8))
    exit(64)
}
let database = try AppDatabase(path: path)
let accounts = try database.accounts()
let active = try database.active(in: session)
let favourites = try active.account.map { try database.favourites(of: $0.id) } ?? []
let guide = try Guide.bundled()

let terminal = try CursesTerminal(input: STDIN_FILENO, output: STDOUT_FILENO)
guard terminal.colors >= 256, terminal.hasDefaultColors else {
    terminal.stop()
    FileHandle.standardError.write(Data("curses-frames: needs a 256-colour terminal with default colours (TERM=xterm-256color)\n".utf8))
    exit(1)
}

var state = AppState(
    session: session, size: terminal.size, now: Moment.now(), guide: guide,
    theme: ThemeSelection.resolve(requested: nil, environment: environment, builtInText: BundledFiles.themeText).theme
        .reduced(toColors: terminal.colors),
    providers: [])
_ = state.reduce(.loaded(AccountList(accounts), active: active))
if let id = active.id { _ = state.reduce(.favouritesLoaded(id, favourites)) }
let first = Screen.draw(state)
_ = state.reduce(.input(.key(.character("j"))))
let second = Screen.draw(state)

/// Colour pairs by (foreground, background) curses colour numbers; on a
/// 256-colour terminal with default colours a palette entry is its own
/// number and the default is -1, as CursesTerminal maps them.
var pairs: [[Int32]: Int32] = [:]

func colorNumber(_ color: Color) -> Int32 {
    if case .palette(let index) = color { return Int32(index) }
    return -1
}

@MainActor func apply(_ style: Style) {
    let attributes = CursesTerminal.cursesAttributes(style.attributes)
    let key = [colorNumber(style.foreground), colorNumber(style.background)]
    var pair: Int32 = 0
    if key != [-1, -1] {
        if let known = pairs[key] {
            pair = known
        } else {
            pair = max(0, alloc_pair(key[0], key[1]))
            pairs[key] = pair
        }
    }
    _ = sb_wattr_set(sb_stdscr(), attributes, pair)
}

/// What curses is given for a cell: its characters (nothing for the right
/// half of a wide one); U+FFFD, padded to the cell's width, where the C
/// library's width of the first character disagrees with the buffer's.
func characters(of cell: Cell) -> [wchar_t] {
    let scalars = cell.symbol.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
    guard let first = scalars.first else { return [] }
    if scalars.count == 1, first < 0x7F { return [first] }
    return Int(wcwidth(first)) == cell.width ? scalars : [0xFFFD] + Array(repeating: 0x20, count: max(0, cell.width - 1))
}

/// Writes every row of `buffer`, run by run of one style, then refreshes.
@MainActor func paint(_ buffer: Buffer) {
    for y in 0..<buffer.height {
        var x = 0
        while x < buffer.width {
            let style = buffer[x, y].style
            var run: [wchar_t] = []
            var end = x
            while end < buffer.width, buffer[end, y].style == style {
                run += characters(of: buffer[end, y])
                end += 1
            }
            apply(style)
            _ = mvwaddnwstr(sb_stdscr(), Int32(y), Int32(x), run, Int32(run.count))
            x = end
        }
    }
    _ = wrefresh(sb_stdscr())
}

func awaitByte() {
    var byte: UInt8 = 0
    while read(STDIN_FILENO, &byte, 1) < 0 && errno == EINTR {}
}

paint(first)
awaitByte()
paint(second)
awaitByte()
terminal.stop()
