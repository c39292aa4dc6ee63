import CNcurses
import ProcessKit
import Testing
import TerminalUI

@testable import CursesBackend

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lending the terminal to another program and taking it back, and a
/// terminal that may not be suspended.
extension CursesTerminalTests {
    @Test("takeBack resets, in order, everything the other program may have set; the next frame is whole")
    func takeBackResets() async throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        let recorder = listen(terminal)
        _ = draw(listFrame(selected: 0), on: terminal, pty)
        terminal.handOver()
        _ = pty.output()

        // The other program: a title, auto-wrap off, origin mode and a scroll
        // region, insert mode, line drawing in G0 and G1 and G1 shifted in,
        // reverse video, a hidden blinking bar cursor, bold red, its alternate
        // screen, bracketed paste, every mouse report, focus reports.
        let nasty = "\u{1B}]0;Ada's mail\u{07}\u{1B}[?7l\u{1B}[?6h\u{1B}[5;10r\u{1B}[4h\u{1B}(0\u{1B})0\u{0E}\u{1B}[?5h"
            + "\u{1B}[?25l\u{1B}[5 q\u{1B}[1;31m\u{1B}[?1049h\u{1B}[?2004h\u{1B}[?1003h\u{1B}[?1006h\u{1B}[?1004h"
        let written = Array(nasty.utf8)
        #expect(written.withUnsafeBytes { write(pty.slave, $0.baseAddress, $0.count) } == written.count)
        #expect(pty.output().contains(nasty))

        terminal.takeBack()
        try await waitUntil { !recorder.events.isEmpty }
        let bytes = pty.output()
        let expected = [
            "\u{1B}[?1049l", "\u{1B}[?2004l", "\u{1B}[?1004l", "\u{1B}[?1000l", "\u{1B}[?1002l", "\u{1B}[?1003l", "\u{1B}[?1006l",
            "\u{1B}[!p", "\u{1B}]0;\u{07}", "\u{1B}[?7h", "\u{1B}[?6l", "\u{1B}[r", "\u{1B}[?5l", "\u{1B}[?25h", "\u{1B}[0 q",
            "\u{1B}(B", "\u{1B})B", "\u{0F}", "\u{1B}[?69l", "\u{1B}]104\u{07}", "\u{1B}]110\u{07}", "\u{1B}]111\u{07}",
            "\u{1B}]112\u{07}", "\u{1B}[<99u", "\u{1B}[>4m", "\u{1B}[0m",
            "\u{1B}[H\u{1B}[2J\u{1B}[3J",  // then the screen cleared
            "\u{1B}[?1049h",  // and curses' own screen again
        ]
        var from = 0
        for sequence in expected {
            guard let end = PseudoTerminal.find(Array(sequence.utf8), in: bytes, from: from) else {
                Issue.record("\(sequence.replacingEscapes()) missing, or out of order, in \(bytes.shown)")
                continue
            }
            from = end
        }
        // The last mode set wins: nothing after the resets sets the other program's modes again.
        let resetStart = PseudoTerminal.find(Array("\u{1B}[!p".utf8), in: bytes, from: 0) ?? 0
        for undone in ["\u{1B}[?7l", "\u{1B}[?6h", "\u{1B}[5;10r", "\u{1B}(0", "\u{1B})0", "\u{1B}[?5h"] {
            #expect(PseudoTerminal.find(Array(undone.utf8), in: bytes, from: resetStart) == nil, "\(undone.replacingEscapes()) after the reset")
        }

        let frame = listFrame(selected: 1, size: terminal.size)
        let repaint = draw(frame, on: terminal, pty)
        for text in ["Accounts 日本 😀", "▸ Grace Hopper", "Barbara Liskov", "│"] {
            #expect(repaint.contains(text), "\(text) missing from \(repaint.shown)")
        }
        #expect(draw(frame, on: terminal, pty).isEmpty, "the frame drawn is the frame on screen")
    }

    @Test("handOver gives the terminal back as before curses, then reads no key and draws nothing; takeBack drops what was typed meanwhile and repaints")
    func handOver() async throws {
        let pty = try PseudoTerminal()
        let shellModes = pty.modes
        let terminal = try start(pty)
        defer { terminal.stop() }
        let recorder = listen(terminal)
        _ = draw(listFrame(selected: 0), on: terminal, pty)

        terminal.handOver()
        let bytes = pty.output()
        #expect(bytes.contains("\u{1B}[?1049l") && bytes.contains("\u{1B}[?25h"), "main screen and cursor back: \(bytes.shown)")
        #expect(bytes.contains("\u{1B}[H\u{1B}[2J\u{1B}[3J"), "the main screen and its scrollback cleared: \(bytes.shown)")
        #expect(pty.modes.c_lflag == shellModes.c_lflag, "the shell's modes")
        pty.type("ls\r")
        #expect(pty.output() == Array("ls\r\n".utf8), "echoed, as the shell's modes want")
        #expect(draw(listFrame(selected: 1), on: terminal, pty).isEmpty, "nothing drawn over the other program")
        pty.resize(columns: 100, rows: 30)
        kill(getpid(), SIGWINCH)
        kill(getpid(), SIGINT)
        // SIGTERM is this program's even while lent; it comes through the same pipe after the two above.
        kill(getpid(), SIGTERM)
        try await waitUntil { !recorder.signals.isEmpty }
        #expect(recorder.events.isEmpty, "no key read, the new size is the other program's")
        #expect(recorder.signals == [SIGTERM], "SIGINT, as the other program's Ctrl-C sends it, is not this program's")

        terminal.takeBack()
        try await waitUntil { !recorder.events.isEmpty }
        #expect(recorder.events == [.resize(Size(width: 100, height: 30))], "what was typed meanwhile is dropped")
        #expect(pty.modes.c_lflag & tcflag_t(ICANON | ECHO) == 0)
        let repaint = draw(listFrame(selected: 1, size: terminal.size), on: terminal, pty)
        #expect(repaint.contains("\u{1B}[H\u{1B}[2J\u{1B}[3J"), "what the other program left is cleared: \(repaint.shown)")
        #expect(repaint.contains("\u{1B}[?1049h") && repaint.contains("Ada Lovelace"), "the whole frame again: \(repaint.shown)")
        pty.type("q")
        try await waitUntil { recorder.events.count == 2 }
        #expect(recorder.events.last == .key(.character("q")))
    }

    @Test("with allowsSuspend off, Ctrl-Z is a key, SIGTSTP is taken and SIGTTIN and SIGTTOU are ignored; on again, or stopped, they are as before")
    func noSuspend() async throws {
        let pty = try PseudoTerminal()
        let terminal = try start(pty)
        defer { terminal.stop() }
        terminal.allowsSuspend = false
        let recorder = listen(terminal)
        _ = draw(listFrame(selected: 0), on: terminal, pty)
        pty.type("\u{1A}")
        try await waitUntil { !recorder.events.isEmpty }
        #expect(recorder.events == [.key(.control("z"))])
        // No signal is sent to this process: were the guard gone, it would
        // stop the tests. `kill -TSTP` and the others are sent to a station
        // in a process of its own (KioskSignalEndToEndTests).
        #expect(CursesTerminal.handlesSuspendRequest, "SIGTSTP is taken, to be dropped")
        #expect(CursesTerminal.ignoresBackgroundSignals, "SIGTTIN and SIGTTOU are ignored")
        #expect(pty.output().isEmpty, "nothing restored")
        #expect(pty.modes.c_lflag & tcflag_t(ICANON | ECHO) == 0)

        terminal.allowsSuspend = true
        #expect(!CursesTerminal.ignoresBackgroundSignals, "suspending allowed again: their default action is back")
        terminal.allowsSuspend = false
        terminal.stop()
        #expect(!CursesTerminal.ignoresBackgroundSignals && !CursesTerminal.handlesSuspendRequest, "stopped: what was there before")
    }
}
