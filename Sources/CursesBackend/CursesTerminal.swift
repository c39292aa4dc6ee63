import CNcurses
import Dispatch
import Foundation
import TerminalUI

/// The terminal, through ncurses: the only code that calls it. Draws cell
/// buffers by writing only the cells that changed since the last frame,
/// and reports keys, mouse clicks and resizes without blocking the main
/// actor and without polling: it sleeps until the input or a signal wakes it.
@MainActor
public final class CursesTerminal {
    /// Colours the terminal shows (curses' `COLORS`); 0 without colour.
    public let colors: Int
    public private(set) var size: Size
    private var previous: Buffer?
    private var pairs: [Style.ColorPair: Int16] = [:]
    private var input: DispatchSourceRead?
    private var wake: DispatchSourceRead?
    private var onEvent: (@MainActor (InputEvent) -> Void)?
    private var onSignal: (@MainActor (Int32) -> Void)?
    private var stopped = false

    /// Starts curses on the controlling terminal (standard input and output).
    public init(mouse: Bool = true) {
        setlocale(LC_ALL, "")
        _ = initscr()
        let screen = sb_stdscr()
        raw()  // Ctrl-C arrives as a key, so quitting is always clean.
        noecho()
        nonl()
        keypad(screen, true)
        nodelay(screen, true)
        _ = set_escdelay(25)
        _ = curs_set(0)
        scrollok(screen, false)
        idlok(screen, false)
        if has_colors() {
            start_color()
            use_default_colors()
            colors = Int(sb_colors())
        } else {
            colors = 0
        }
        if mouse {
            _ = mousemask(sb_mouse_mask(), nil)
            _ = mouseinterval(0)
        }
        var rows: Int32 = 0, cols: Int32 = 0
        sb_getmaxyx(screen, &rows, &cols)
        size = Size(width: Int(cols), height: Int(rows))
        SignalPipe.install()
    }

    /// Starts delivering input to `onEvent` and the signals SIGTERM, SIGHUP
    /// and SIGINT to `onSignal`, each on the main actor.
    public func listen(onEvent: @escaping @MainActor (InputEvent) -> Void, onSignal: @escaping @MainActor (Int32) -> Void) {
        self.onEvent = onEvent
        self.onSignal = onSignal
        (input, wake) = Self.makeSources(
            keys: { [weak self] in self?.drainKeys() },
            signals: { [weak self] in self?.handleSignals($0) },
            isStopped: { [weak self] in self?.stopped ?? true })
    }

    /// Read sources for the terminal and the signal pipe. Built outside the
    /// main actor: their handlers run on a background queue and only hop
    /// to the main actor, where every curses call happens.
    private nonisolated static func makeSources(
        keys: @escaping @MainActor @Sendable () -> Void, signals: @escaping @MainActor @Sendable ([Int32]) -> Void,
        isStopped: @escaping @MainActor @Sendable () -> Bool
    ) -> (DispatchSourceRead, DispatchSourceRead) {
        let queue = DispatchQueue(label: "switchboard.input")
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        // Dispatch sources are thread-safe; corelibs does not mark them Sendable.
        nonisolated(unsafe) let source = input
        input.setEventHandler {
            // Level-triggered: pause until the main actor has read what is there.
            source.suspend()
            Task { @MainActor in
                keys()
                if !isStopped() { source.resume() }
            }
        }
        input.resume()
        let wake = DispatchSource.makeReadSource(fileDescriptor: SignalPipe.readEnd, queue: queue)
        wake.setEventHandler {
            var received: [Int32] = []
            var byte: UInt8 = 0
            while read(SignalPipe.readEnd, &byte, 1) == 1 { received.append(Int32(byte)) }
            Task { @MainActor in signals(received) }
        }
        wake.resume()
        return (input, wake)
    }

    /// Shows `buffer`: only the cells that differ from the last frame are
    /// written, then one `doupdate`. A new size redraws everything.
    public func draw(_ buffer: Buffer) {
        guard !stopped else { return }
        let screen = sb_stdscr()
        if previous?.size != buffer.size {
            previous = nil
            werase(screen)
        }
        let changes = buffer.changes(from: previous)
        var index = 0
        while index < changes.count {
            // A run: consecutive cells on one row in one style.
            let first = changes[index]
            var text = first.cell.symbol
            var column = first.x + max(1, DisplayWidth.of(first.cell.symbol))
            var next = index + 1
            while next < changes.count, changes[next].y == first.y, changes[next].x == column, changes[next].cell.style == first.cell.style {
                text += changes[next].cell.symbol
                column += max(1, DisplayWidth.of(changes[next].cell.symbol))
                next += 1
            }
            apply(first.cell.style)
            _ = text.withCString(encodedAs: UTF32.self) { pointer in
                pointer.withMemoryRebound(to: wchar_t.self, capacity: text.unicodeScalars.count + 1) {
                    mvwaddwstr(screen, Int32(first.y), Int32(first.x), $0)
                }
            }
            index = next
        }
        wnoutrefresh(screen)
        doupdate()
        previous = buffer
    }

    /// Forgets the last frame, so the next draw writes every cell.
    public func invalidate() {
        previous = nil
        clearok(sb_stdscr(), true)
    }

    /// Puts `text` on the clipboard of the terminal (and through tmux or
    /// ssh) with OSC 52.
    public func copyToClipboard(_ text: String) {
        let sequence = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
        fflush(nil)  // curses' own output first
        _ = sequence.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
    }

    /// Gives the terminal back as it was. Safe to call twice.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        input?.cancel()
        wake?.cancel()
        endwin()
    }

    private func apply(_ style: Style) {
        var attributes = sb_a_normal()
        if style.attributes.contains(.bold) { attributes |= sb_a_bold() }
        if style.attributes.contains(.dim) { attributes |= sb_a_dim() }
        if style.attributes.contains(.italic) { attributes |= sb_a_italic() }
        if style.attributes.contains(.underline) { attributes |= sb_a_underline() }
        if style.attributes.contains(.reverse) { attributes |= sb_a_reverse() }
        wattr_set(sb_stdscr(), attributes, pair(for: style.colorPair), nil)
    }

    private func pair(for colors: Style.ColorPair) -> Int16 {
        guard self.colors > 0 else { return 0 }
        if colors.foreground == .default && colors.background == .default { return 0 }
        if let known = pairs[colors] { return known }
        let number = alloc_pair(number(colors.foreground), number(colors.background))
        let pair = number > 0 && number <= Int32(Int16.max) ? Int16(number) : 0
        pairs[colors] = pair
        return pair
    }

    private func number(_ color: Color) -> Int32 {
        switch color {
        case .default: -1
        case .palette(let index): Int(index) < colors ? Int32(index) : -1
        }
    }

    private func drainKeys() {
        guard !stopped else { return }
        var character: wint_t = 0
        while true {
            let result = wget_wch(sb_stdscr(), &character)
            if result == ERR { break }
            if let event = KeyDecoder.event(result: result, code: Int32(bitPattern: character), mouse: readMouse) {
                onEvent?(event)
            }
            if stopped { break }
        }
    }

    private func readMouse() -> MouseEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let kind: MouseEvent.Kind
        switch sb_mouse_kind(event.bstate) {
        case 1: kind = .press
        case 2: kind = .release
        case 3: kind = .scrollUp
        case 4: kind = .scrollDown
        default: return nil
        }
        return MouseEvent(x: Int(event.x), y: Int(event.y), kind: kind)
    }

    private func handleSignals(_ signals: [Int32]) {
        guard !stopped else { return }
        for signal in Set(signals) {
            if signal == SIGWINCH {
                var window = winsize()
                if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &window) == 0, window.ws_row > 0, window.ws_col > 0 {
                    resizeterm(Int32(window.ws_row), Int32(window.ws_col))
                }
                var rows: Int32 = 0, cols: Int32 = 0
                sb_getmaxyx(sb_stdscr(), &rows, &cols)
                size = Size(width: Int(cols), height: Int(rows))
                invalidate()
                // resizeterm queues a KEY_RESIZE; take it out so it is reported once.
                drainKeys()
                onEvent?(.resize(size))
            } else {
                onSignal?(signal)
            }
        }
    }
}

extension Style {
    /// The colours of a style, which is what a curses colour pair holds.
    struct ColorPair: Hashable {
        let foreground: Color
        let background: Color
    }

    var colorPair: ColorPair { ColorPair(foreground: foreground, background: background) }
}
