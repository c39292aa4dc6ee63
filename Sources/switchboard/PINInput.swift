import Foundation
import Glibc

/// Reads PINs: from the terminal with echo off (the prompt on standard
/// error), or one line of standard input when that is not a terminal.
/// Never from the command line, where other users' `ps` would see it.
enum PINInput {
    /// Whether standard input is a terminal, so a PIN can be asked for.
    static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Asks on the terminal without echo, or reads the next line of
    /// standard input; `field` names it in errors.
    static func read(prompt: String, field: String) throws -> String {
        if isTerminal { return try readHidden(prompt: prompt, field: field) }
        return try line(field: field)
    }

    /// The next line of standard input, without its line ending.
    static func line(field: String) throws -> String {
        guard let line = Swift.readLine(strippingNewline: true) else {
            throw fail("\(field): standard input ended before it was given", .usage)
        }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }

    /// The terminal's settings while echo is off, to put back on Ctrl-C.
    nonisolated(unsafe) private static var saved = termios()

    private static func readHidden(prompt: String, field: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { throw fail("\(field): cannot read the terminal's settings", .failure) }
        saved = settings
        settings.c_lflag &= ~tcflag_t(ECHO)
        settings.c_lflag |= tcflag_t(ECHONL)
        let previous = signal(SIGINT) { _ in
            tcsetattr(STDIN_FILENO, TCSANOW, &PINInput.saved)
            _exit(130)
        }
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            signal(SIGINT, previous)
        }
        return try line(field: field)
    }
}
