import CNcurses
import ProcessKit
import Testing
import TerminalUI
import TestBasics

@testable import CursesBackend

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The backend against a real pseudo-terminal, as xterm-256color: what it
/// writes, and what it reads back as events. Serialized: curses drives one
/// terminal at a time.
@MainActor
@Suite("Curses terminal on a pseudo-terminal", .serialized)
final class CursesTerminalTests {
    /// Each test installs the terminal's signal handlers and checks them: no
    /// other test may change them meanwhile.
    init() async { await processSignals.acquire() }
    deinit { processSignals.release() }

    /// Events and signals as the terminal delivered them.
    final class Recorder {
        var events: [InputEvent] = []
        var signals: [Int32] = []
    }

    /// A terminal on `pty`; what starting it wrote (mouse on, cursor off)
    /// is read into `startBytes`.
    func start(
        _ pty: PseudoTerminal, type: String = "xterm-256color", mouse: Bool = true
    ) throws -> CursesTerminal {
        // Sizes come from the terminal, not from the environment.
        unsetenv("LINES")
        unsetenv("COLUMNS")
        let terminal = try CursesTerminal(input: pty.slave, output: pty.slave, terminalType: type, mouse: mouse)
        startBytes = pty.output()
        return terminal
    }

    /// What the last `start` wrote.
    var startBytes: [UInt8] = []

    func listen(_ terminal: CursesTerminal) -> Recorder {
        let recorder = Recorder()
        terminal.listen(onEvent: { recorder.events.append($0) }, onSignal: { recorder.signals.append($0) })
        return recorder
    }

    /// Waits (on the main actor, so the terminal's read sources run) until
    /// `condition` holds; throws when it does not in time.
    func waitUntil(_ condition: () -> Bool) async throws {
        try await TestBasics.waitUntil("the terminal's event", condition)
    }

    /// Draws `buffer` and returns what reached the pseudo-terminal: `draw`
    /// has written it all by the time it returns.
    func draw(_ buffer: Buffer, on terminal: CursesTerminal, _ pty: PseudoTerminal) -> [UInt8] {
        terminal.draw(buffer)
        return pty.output()
    }

    /// A list with one highlighted row, a border at the right.
    func listFrame(selected: Int, size: Size = Size(width: 80, height: 24)) -> Buffer {
        var buffer = Buffer(size: size)
        buffer.write("Accounts 日本 😀", x: 1, y: 0, style: Style(foreground: .palette(214), attributes: .bold))
        let names = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"]
        for (index, name) in names.enumerated() {
            let chosen = index == selected
            let style = chosen ? Style(foreground: .palette(231), background: .palette(25), attributes: .bold) : .plain
            buffer.write(((chosen ? "▸ " : "  ") + name).padded(toWidth: 30), x: 1, y: 2 + index, style: style)
        }
        for y in 0..<size.height { buffer.write("│", x: 40, y: y, style: Style(foreground: .palette(39))) }
        return buffer
    }

    static let clearScreen = ["\u{1B}[2J", "\u{1B}[H\u{1B}[J", "\u{1B}[J"]

    @Test("the first frame enters the alternate screen and writes the text, colours and wide characters")
    func firstFrame() throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        #expect(terminal.size == Size(width: 80, height: 24))
        #expect(terminal.colors == 256)
        #expect(terminal.isUTF8)

        // Starting: the alternate screen, keypad mode, cursor off, mouse on.
        for sequence in ["\u{1B}[?1049h", "\u{1B}[?1h\u{1B}=", "\u{1B}[?25l", "\u{1B}[?1006;1000h"] {
            #expect(startBytes.contains(sequence), "\(sequence.replacingEscapes()) missing from \(startBytes.shown)")
        }
        let bytes = draw(listFrame(selected: 0), on: terminal, pty)
        for text in ["Accounts 日本 😀", "▸ Ada Lovelace", "Grace Hopper", "│"] {
            #expect(bytes.contains(text), "\(text) missing from \(bytes.shown)")
        }
        #expect(bytes.contains("38;5;214m") && bytes.contains("38;5;231m") && bytes.contains("48;5;25m"))
        #expect(bytes.contains("\u{1B}[0;1m"))  // bold
    }

    @Test("an emoji ZWJ sequence reaches the terminal whole, and the rest of the row stays in its columns")
    func zwjSequence() throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        let family = "👨\u{200D}👩\u{200D}👧"
        var buffer = Buffer(size: Size(width: 80, height: 24))
        buffer.write("Family \(family) after", x: 2, y: 3)
        buffer.write("next row", x: 2, y: 4)
        let bytes = draw(buffer, on: terminal, pty)
        #expect(bytes.contains(family), "\(bytes.shown)")
        #expect(bytes.contains("after") && bytes.contains("next row"))
        // Once more with one change after it: the family is not written again.
        buffer.write("AFTER", x: 12, y: 3)
        let again = draw(buffer, on: terminal, pty)
        #expect(again.contains("AFTER"))
        #expect(!again.contains(family))
    }

    @Test("the same frame again writes nothing; one changed cell writes a few bytes and never clears")
    func diffing() throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        var frame = listFrame(selected: 0)
        _ = draw(frame, on: terminal, pty)

        #expect(draw(frame, on: terminal, pty).isEmpty)

        frame.write("X", x: 70, y: 20)
        let one = draw(frame, on: terminal, pty)
        #expect(one.contains("X"))
        #expect(one.count <= 16, "one cell took \(one.count) bytes: \(one.shown)")
        for clear in Self.clearScreen { #expect(!one.contains(clear)) }
    }

    @Test("moving the highlight by one row writes the two rows only")
    func highlightMove() throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        let first = draw(listFrame(selected: 0), on: terminal, pty)
        let moved = draw(listFrame(selected: 1), on: terminal, pty)
        let back = draw(listFrame(selected: 0), on: terminal, pty)
        print("curses backend: first frame \(first.count) bytes, highlight move \(moved.count) and \(back.count) bytes")
        print("curses backend: move = \(moved.shown)")
        #expect(moved.contains("▸ Grace Hopper") && moved.contains("  Ada Lovelace"))
        #expect(moved.count < 130, "\(moved.count) bytes: \(moved.shown)")
        for clear in Self.clearScreen { #expect(!moved.contains(clear)) }
        #expect(!moved.contains("Alan Turing"))
    }

    @Test("a frame of a new size, and the frame after invalidate(), clear and repaint everything")
    func fullRepaint() throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        _ = draw(listFrame(selected: 0), on: terminal, pty)

        terminal.invalidate()
        let repainted = draw(listFrame(selected: 0), on: terminal, pty)
        #expect(repainted.contains("\u{1B}[H\u{1B}[2J") && repainted.contains("Barbara Liskov"), "\(repainted.shown)")

        let smaller = draw(listFrame(selected: 0, size: Size(width: 60, height: 20)), on: terminal, pty)
        #expect(smaller.contains("\u{1B}[H\u{1B}[2J") && smaller.contains("Barbara Liskov"))
    }

    @Test("the bottom-right cell is written without scrolling")
    func bottomRight() throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        var frame = Buffer(size: terminal.size)
        frame.write("top", x: 0, y: 0)
        frame.write("Z", x: 79, y: 23)
        let bytes = draw(frame, on: terminal, pty)
        #expect(bytes.contains("Z") && bytes.contains("top"))
        frame.write("Y", x: 79, y: 23)
        let again = draw(frame, on: terminal, pty)
        #expect(again.contains("Y") && !again.contains("top"), "\(again.shown)")
        #expect(!again.contains("\n"))
    }

    @Test("keys typed at the terminal arrive as key events, in order")
    func keys() async throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        let recorder = listen(terminal)

        pty.type("\u{1B}[A\u{1B}OBq\u{03}\r\u{7F}\t\u{1B}[Zé日\u{1B}OP\u{1B}[3~\u{1B}[5~\u{1B}[H")
        let expected: [Key] = [
            .up, .down, .character("q"), .control("c"), .enter, .backspace, .tab, .backTab, .character("é"),
            .character("日"), .function(1), .delete, .pageUp, .home,
        ]
        try await waitUntil { recorder.events.count >= expected.count }
        #expect(recorder.events == expected.map(InputEvent.key))

        // A lone Escape, once ESCDELAY has passed.
        recorder.events.removeAll()
        pty.type("\u{1B}")
        try await waitUntil { !recorder.events.isEmpty }
        #expect(recorder.events == [.key(.escape)])
    }

    @Test("mouse reports (SGR) arrive at their cell")
    func mouse() async throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        let recorder = listen(terminal)
        _ = draw(listFrame(selected: 0), on: terminal, pty)

        pty.type("\u{1B}[<0;11;6M\u{1B}[<0;11;6m\u{1B}[<64;3;4M\u{1B}[<65;3;4M")
        try await waitUntil { recorder.events.count >= 4 }
        #expect(
            recorder.events == [
                .mouse(MouseEvent(x: 10, y: 5, kind: .press)), .mouse(MouseEvent(x: 10, y: 5, kind: .release)),
                .mouse(MouseEvent(x: 2, y: 3, kind: .scrollUp)), .mouse(MouseEvent(x: 2, y: 3, kind: .scrollDown)),
            ])
    }

    @Test("SIGWINCH wakes the terminal, which reports the new size and repaints the next frame")
    func resize() async throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        #expect(CursesTerminal.handlesWindowChange)
        let recorder = listen(terminal)
        _ = draw(listFrame(selected: 0), on: terminal, pty)

        pty.resize(columns: 100, rows: 30)
        kill(getpid(), SIGWINCH)
        try await waitUntil { !recorder.events.isEmpty }
        #expect(recorder.events == [.resize(Size(width: 100, height: 30))])
        #expect(terminal.size == Size(width: 100, height: 30))

        let frame = listFrame(selected: 0, size: terminal.size)
        let bytes = draw(frame, on: terminal, pty)
        #expect(bytes.contains("\u{1B}[H\u{1B}[2J") && bytes.contains("Edsger Dijkstra"))
        #expect(draw(frame, on: terminal, pty).isEmpty)
    }

    @Test("a storm of resizes ends in a whole frame of the last size, even when the size ends where it began")
    func resizeStorm() async throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        let recorder = listen(terminal)
        _ = draw(listFrame(selected: 0), on: terminal, pty)
        // Sizes the program has no time to see, and back to where it began: the terminal may have cut the screen meanwhile.
        for (columns, rows) in [(50, 10), (120, 40), (30, 8), (80, 24)] {
            pty.resize(columns: columns, rows: rows)
            kill(getpid(), SIGWINCH)
        }
        try await waitUntil { recorder.events.last == .resize(Size(width: 80, height: 24)) }
        #expect(recorder.events.last == .resize(Size(width: 80, height: 24)), "\(recorder.events)")
        #expect(terminal.size == Size(width: 80, height: 24))
        let bytes = draw(listFrame(selected: 0, size: terminal.size), on: terminal, pty)
        #expect(bytes.contains("\u{1B}[H\u{1B}[2J") && bytes.contains("Barbara Liskov") && bytes.contains("│"), "\(bytes.shown)")
        // Storms in between, each ending at another size: the last event is the last size, and its frame is whole.
        for (columns, rows) in [(100, 30), (60, 20), (90, 25)] {
            pty.resize(columns: columns, rows: rows)
            kill(getpid(), SIGWINCH)
        }
        try await waitUntil { recorder.events.last == .resize(Size(width: 90, height: 25)) }
        #expect(terminal.size == Size(width: 90, height: 25))
        let last = draw(listFrame(selected: 0, size: terminal.size), on: terminal, pty)
        #expect(last.contains("\u{1B}[H\u{1B}[2J") && last.contains("Barbara Liskov"))
    }

    @Test("the first SIGTERM goes to the program, on the main actor, instead of ending it; a SIGHUP after it is part of the same stop")
    func termination() async throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        let recorder = listen(terminal)
        try #require(CursesTerminal.handlesTermination)
        // As login(1) and systemd stop a session: SIGTERM, then SIGHUP at once.
        await signalInOrder([SIGTERM, SIGHUP])
        // A later event, through the same pipe, after which a second signal would have been delivered.
        pty.resize(columns: 81, rows: 24)
        kill(getpid(), SIGWINCH)
        try await waitUntil { recorder.events.contains(.resize(Size(width: 81, height: 24))) }
        #expect(recorder.signals == [SIGTERM])
    }

    @Test("a terminal that hangs up is reported as SIGHUP, once, and no longer read")
    func hangUp() async throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        let recorder = listen(terminal)
        pty.hangUp()
        try await waitUntil { !recorder.signals.isEmpty }
        // A later signal, through the same pipe: a second hang-up would have come before it.
        kill(getpid(), SIGTERM)
        try await waitUntil { recorder.signals.count == 2 }
        #expect(recorder.signals == [SIGHUP, SIGTERM])
        #expect(terminal.inputSource == nil)
    }

    @Test("stop() restores the modes and the main screen, once; then another terminal can start")
    func stopping() throws {
        let pty = try PseudoTerminal()
        let shellModes = pty.modes
        let terminal = try start(pty)
        _ = draw(listFrame(selected: 0), on: terminal, pty)
        #expect(pty.modes.c_lflag & tcflag_t(ICANON | ECHO) == 0)
        #expect(throws: CursesError.alreadyRunning) { try start(pty) }

        terminal.stop()
        #expect(!terminal.isRunning)
        let bytes = pty.output()
        #expect(bytes.contains("\u{1B}[?1049l") && bytes.contains("\u{1B}[?25h"), "\(bytes.shown)")
        #expect(bytes.contains("\u{1B}[?1006;1000l"))  // mouse reports off
        #expect(pty.modes.c_lflag == shellModes.c_lflag)
        #expect(!CursesTerminal.handlesWindowChange && !CursesTerminal.handlesTermination)

        terminal.stop()
        terminal.draw(listFrame(selected: 1))
        #expect(pty.output().isEmpty)

        let next = try start(pty)
        #expect(draw(listFrame(selected: 2), on: next, pty).contains("▸ Alan Turing"))
        next.stop()
    }

    @Test("the emergency restore puts the terminal back from anywhere, once")
    func emergencyRestore() throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        _ = draw(listFrame(selected: 0), on: terminal, pty)

        CursesTerminal.emergencyRestore()
        let bytes = pty.output()
        #expect(bytes.contains("\u{1B}[?1049l") && bytes.contains("\u{1B}[?25h") && bytes.contains("\u{1B}[?1006;1000l"))
        #expect(pty.modes.c_lflag & tcflag_t(ICANON | ECHO) == tcflag_t(ICANON | ECHO))
        CursesTerminal.emergencyRestore()
        #expect(pty.output().isEmpty)
    }

    @Test("copyToClipboard writes OSC 52 after the screen")
    func clipboard() throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        _ = draw(listFrame(selected: 0), on: terminal, pty)
        terminal.copyToClipboard("hi")
        #expect(pty.output() == Array("\u{1B}]52;c;aGk=\u{07}".utf8))
    }

    @Test("an 8-colour terminal gets the nearest basic colours; one without colour gets none")
    func fewerColours() throws {
        var frame = Buffer(size: Size(width: 80, height: 24))
        frame.write("red", x: 0, y: 0, style: Style(foreground: .palette(196), background: .palette(21)))
        do {
            let pty = try PseudoTerminal()
            let terminal = try start(pty, type: "xterm")
            #expect(terminal.colors == 8)
            let bytes = draw(frame, on: terminal, pty)
            #expect(bytes.contains("\u{1B}[31m") && bytes.contains("\u{1B}[44m"), "\(bytes.shown)")
            terminal.stop()
        }
        do {
            let pty = try PseudoTerminal()
            let terminal = try start(pty, type: "vt100", mouse: false)
            #expect(terminal.colors == 0)
            let bytes = draw(frame, on: terminal, pty)
            #expect(bytes.contains("red") && !bytes.contains("\u{1B}[3") && !bytes.contains("\u{1B}[4"), "\(bytes.shown)")
            terminal.stop()
        }
    }

    @Test("an unknown terminal type or a descriptor that is no terminal throws, and leaves nothing behind")
    func failures() throws {
        let pty = try PseudoTerminal()
        #expect(throws: CursesError.unknownTerminal("no-such-terminal")) {
            try start(pty, type: "no-such-terminal")
        }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        #expect(throws: CursesError.notATerminal) {
            try CursesTerminal(input: ends[0], output: ends[1])
        }
        #expect(!CursesTerminal.handlesWindowChange)
        let terminal = try start(pty)
        terminal.stop()
    }
}

/// Sends `signals` to this process one after the other, each handled
/// before the next is sent: from a thread of its own, to itself, with them
/// unblocked there (a thread-directed signal to itself is handled before
/// `pthread_kill` returns). Sent with `kill` to the process, two that are
/// both pending before a thread takes them arrive lowest number first:
/// SIGHUP before SIGTERM.
private func signalInOrder(_ signals: [Int32]) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let job = Unmanaged.passRetained(SignalJob(signals: signals, continuation: continuation)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { raw in
            let job = Unmanaged<SignalJob>.fromOpaque(raw!).takeRetainedValue()
            var set = sigset_t()
            sigemptyset(&set)
            for signal in job.signals { sigaddset(&set, signal) }
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            for signal in job.signals { pthread_kill(pthread_self(), signal) }
            job.continuation.resume()
            return nil
        }, job)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<SignalJob>.fromOpaque(job).release()
            continuation.resume()
        }
    }
}

/// What `signalInOrder`'s thread sends, and whom it tells when done.
private final class SignalJob: Sendable {
    let signals: [Int32]
    let continuation: CheckedContinuation<Void, Never>

    init(signals: [Int32], continuation: CheckedContinuation<Void, Never>) {
        self.signals = signals
        self.continuation = continuation
    }
}
