import CNcurses
import Dispatch
import TerminalUI
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the terminal could not start.
public enum CursesError: Error, Equatable, CustomStringConvertible {
    /// Input or output is not a terminal.
    case notATerminal
    /// curses knows no terminal of this type (`TERM`).
    case unknownTerminal(String)
    /// Another `CursesTerminal` is running; curses drives one at a time.
    case alreadyRunning
    /// A system call failed with `errno`.
    case system(String, Int32)

    public var description: String {
        switch self {
        case .notATerminal: "input and output must be a terminal"
        case .unknownTerminal(let type): "unknown terminal type \"\(type)\""
        case .alreadyRunning: "another full-screen terminal is already running"
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// The terminal, driven by ncurses: the only type that calls curses.
///
/// `draw(_:)` shows a `Buffer` by writing only the cells that changed since
/// the previous frame. `listen(onEvent:onSignal:)` delivers keys, mouse
/// reports, new sizes and termination signals on the main actor. Nothing
/// polls: a read source on the input and a self-pipe that the SIGWINCH and
/// SIGTERM handlers write to wake the main queue, which drains curses
/// without blocking; idle, the backend causes no wake-ups at all (on Linux
/// libdispatch itself wakes once a second, in any async Swift program).
/// Every curses call happens on the main actor: curses is not thread-safe.
///
/// One terminal runs at a time. From creation until `stop()` SIGTERM,
/// SIGHUP, SIGINT, SIGQUIT and crashes restore the terminal before the
/// process ends (see `listen` for the orderly way out of the first
/// SIGTERM); `stop()`, idempotent, restores it in the ordinary way.
@MainActor
public final class CursesTerminal {
    /// File descriptor keys are read from.
    public let input: Int32
    /// File descriptor the screen is written to.
    public let output: Int32

    /// Whether curses owns the terminal (until `stop()`).
    public internal(set) var isRunning = false
    /// The terminal's size in cells.
    public internal(set) var size = Size(width: 0, height: 0)
    /// The colours the terminal shows (curses' `COLORS`); 0 without colour.
    /// Palette entries beyond it are drawn as the nearest basic colour, but
    /// a theme reduced with `Theme.reduced(toColors:)` never has any.
    public private(set) var colors = 0
    /// Whether the terminal has default colours apart from the palette.
    public private(set) var hasDefaultColors = false
    /// Whether the character set is UTF-8; without it text beyond ASCII
    /// shows as `?`. A locale without UTF-8 is given C.UTF-8's characters.
    public private(set) var isUTF8 = false

    var screen: OpaquePointer?
    var outputFile: UnsafeMutablePointer<FILE>?
    var inputFile: UnsafeMutablePointer<FILE>?
    /// A 1×1 window that is never drawn: reading keys through it never
    /// makes curses refresh the screen.
    var inputWindow: UnsafeMutablePointer<WINDOW>?
    var inputSource: DispatchSourceRead?
    var wakeSource: DispatchSourceRead?
    var wakePipe: (read: Int32, write: Int32) = (-1, -1)
    var onEvent: (@MainActor (InputEvent) -> Void)?
    var onSignal: (@MainActor (Int32) -> Void)?
    var emptyWakeUps = 0
    /// The frame on screen; nil when the next draw repaints everything.
    var lastFrame: Buffer?
    /// The tty modes from before curses started, restored at the end.
    var shellModes: termios?
    var mouse = true
    var pairs: [ColorPair: Int32] = [:]
    /// Whether the program can be suspended: Ctrl-Z suspends it (see
    /// `suspend()`) rather than arriving as `.control("z")`, and so does
    /// `kill -TSTP`. On by default, as in a shell. Off (a station), no
    /// signal of the job-control set stops it: SIGTSTP is taken and
    /// dropped, SIGTTIN and SIGTTOU are ignored until it is on again or the
    /// terminal stops. (Nothing can catch SIGSTOP.)
    public var allowsSuspend = true {
        didSet { if isRunning { Self.ignoreBackgroundSignals(!allowsSuspend) } }
    }
    /// Set between `handOver()` and `takeBack()`: another program has the
    /// terminal.
    var isHandedOver = false
    /// Set while continuing from a stop of our own, whose SIGCONT then
    /// needs no second repaint.
    var continuedFromOwnStop = false

    static var running = false

    /// Takes over the terminal on `input` and `output`: full screen (the
    /// alternate screen), raw keys — Ctrl-C arrives as `.control("c")`,
    /// Ctrl-S as a key too; Ctrl-Z suspends (`allowsSuspend`) — no
    /// echo, hidden cursor, colours,
    /// and the mouse when `mouse` is set.
    ///
    /// - Parameters:
    /// - Parameter terminalType: the terminfo entry; nil for `$TERM`.
    public init(input: Int32, output: Int32, terminalType: String? = nil, mouse: Bool = true) throws {
        self.input = input
        self.output = output
        try start(terminalType: terminalType, mouse: mouse)
    }

    /// The controlling terminal (standard input and output). Like curses'
    /// `initscr`, prints the reason and exits with status 1 when it cannot
    /// start; `init(input:output:…)` throws instead.
    public convenience init(mouse: Bool = true) {
        do {
            try self.init(input: STDIN_FILENO, output: STDOUT_FILENO, mouse: mouse)
        } catch {
            let message = "Error opening terminal: \(error)\n"
            _ = message.withCString { write(STDERR_FILENO, $0, strlen($0)) }
            exit(1)
        }
    }

    private func start(terminalType: String?, mouse: Bool) throws {
        guard !Self.running else { throw CursesError.alreadyRunning }
        guard isatty(input) == 1, isatty(output) == 1 else { throw CursesError.notATerminal }

        setlocale(LC_ALL, "")
        if sb_codeset_is_utf8() == 0 { setlocale(LC_CTYPE, "C.UTF-8") }
        isUTF8 = sb_codeset_is_utf8() != 0

        var ends: [Int32] = [-1, -1]
        guard sb_make_pipe(&ends) == 0 else { throw CursesError.system("pipe", errno) }
        wakePipe = (ends[0], ends[1])
        var modes = termios()
        shellModes = tcgetattr(output, &modes) == 0 ? modes : nil
        self.mouse = mouse
        // Before newterm, so that curses leaves SIGWINCH, SIGINT and SIGTERM to us.
        Self.installHandlers(fd: output, termios: shellModes, wakeFD: wakePipe.write)

        outputFile = Self.stream(output, mode: "w")
        inputFile = Self.stream(input, mode: "r")
        if outputFile != nil, inputFile != nil {
            screen = newterm(terminalType, outputFile, inputFile)
        }
        guard let screen else {
            let code = errno
            let failedOpen = outputFile == nil || inputFile == nil
            releaseResources()
            if failedOpen { throw CursesError.system("fdopen", code) }
            throw CursesError.unknownTerminal(terminalType ?? getenv("TERM").map { String(cString: $0) } ?? "")
        }
        set_term(screen)
        Self.running = true
        isRunning = true
        configureModes(mouse: mouse)
        Self.armRestore(bytes: restoreSequence(mouse: mouse))
        size = Size(width: Int(sb_cols()), height: Int(sb_lines()))
    }

    /// A stream on a close-on-exec copy of `fd`, for curses to own.
    private static func stream(_ fd: Int32, mode: String) -> UnsafeMutablePointer<FILE>? {
        let copy = sb_dup_cloexec(fd)
        guard copy >= 0 else { return nil }
        if let file = fdopen(copy, mode) { return file }
        close(copy)
        return nil
    }

    private func configureModes(mouse: Bool) {
        let standard = sb_stdscr()
        raw()
        noecho()
        nonl()
        intrflush(standard, false)
        leaveok(standard, true)
        scrollok(standard, false)
        idlok(standard, false)
        set_escdelay(25)
        curs_set(0)
        // No polling the input in the middle of an update (curses would cut
        // a frame short when a key is waiting): every key leads to a frame.
        typeahead(-1)

        inputWindow = newwin(1, 1, 0, 0)
        keypad(inputWindow, true)
        nodelay(inputWindow, true)
        meta(inputWindow, true)
        untouchwin(inputWindow)
        // Terminals that ignore application cursor mode send the CSI forms.
        let extraKeys: [(String, Int32)] = [
            ("\u{1B}[A", KEY_UP), ("\u{1B}[B", KEY_DOWN), ("\u{1B}[C", KEY_RIGHT), ("\u{1B}[D", KEY_LEFT),
            ("\u{1B}[H", KEY_HOME), ("\u{1B}[F", KEY_END), ("\u{1B}OH", KEY_HOME), ("\u{1B}OF", KEY_END),
            ("\u{1B}[1~", KEY_HOME), ("\u{1B}[4~", KEY_END), ("\u{1B}[7~", KEY_HOME), ("\u{1B}[8~", KEY_END),
            ("\u{1B}[Z", KEY_BTAB),
        ]
        for (sequence, key) in extraKeys where key_defined(sequence) == 0 { define_key(sequence, key) }

        if has_colors() {
            start_color()
            hasDefaultColors = use_default_colors() == OK
            colors = Int(sb_colors())
        }
        if mouse {
            mousemask(sb_mouse_mask(), nil)
            mouseinterval(0)
        }
    }

    /// After a stop: the modes curses left (`reset_prog_mode` restored the
    /// tty's), the alternate screen and keypad again, and the mouse.
    func configureAfterResume() {
        let standard = sb_stdscr()
        if let smcup = sb_tigetstr("smcup") { writeBytes(Array(String(cString: smcup).utf8)) }
        keypad(inputWindow, true)
        curs_set(0)
        leaveok(standard, true)
        if mouse {
            mousemask(0, nil)
            mousemask(sb_mouse_mask(), nil)
        }
    }

    /// Writes `bytes` to the terminal as they are.
    func writeBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(output, raw.baseAddress! + offset, raw.count - offset)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
        }
    }

    /// What puts the terminal back in a hurry: attributes off, mouse
    /// reports off, keypad local, cursor shown, main screen.
    func restoreSequence(mouse: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        func add(_ capability: String) {
            if let value = sb_tigetstr(capability) { bytes += Array(String(cString: value).utf8) }
        }
        add("sgr0")
        if mouse {
            if let xm = sb_tigetstr("XM"), let off = sb_tiparm1(xm, 0) {
                bytes += Array(String(cString: off).utf8)
            } else if sb_tigetstr("kmous") != nil {
                bytes += Array("\u{1B}[?1000l".utf8)
            }
        }
        add("rmkx")
        add("cnorm")
        add("rmcup")
        return bytes
    }

    /// Gives the terminal back as it was: ends curses, restores the signal
    /// handlers, stops the input. Safe to call twice.
    public func stop() {
        guard isRunning else { return }
        // Signals stop writing to the pipe (so its closing raises no SIGPIPE)
        // and, until endwin is done, restore the terminal themselves.
        Self.detachWakePipe()
        endwin()
        releaseResources()
        isRunning = false
        Self.running = false
        onEvent = nil
        onSignal = nil
    }

    private func releaseResources() {
        Self.disarmRestore()
        stopInputSources()
        if wakePipe.write >= 0 { close(wakePipe.write) }
        wakePipe = (-1, -1)
        if let inputWindow { delwin(inputWindow) }
        inputWindow = nil
        if let screen { delscreen(screen) }
        screen = nil
        if let outputFile { fclose(outputFile) }
        if let inputFile { fclose(inputFile) }
        outputFile = nil
        inputFile = nil
    }

    /// Writes `bytes` straight to the terminal, after curses' own output.
    /// They must not move the cursor or change what is shown.
    public func writeRaw(_ bytes: [UInt8]) {
        guard isRunning else { return }
        doupdate()
        writeBytes(bytes)
    }

    /// Puts `text` on the terminal's clipboard with OSC 52 (through tmux
    /// when its `set-clipboard` is on, and through ssh).
    public func copyToClipboard(_ text: String) {
        writeRaw(OSC52.sequence(copying: text))
    }
}
