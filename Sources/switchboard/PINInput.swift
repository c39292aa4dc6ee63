import ArgumentParser
import Foundation
import Glibc
import Store
import SwitchboardCore

/// Reads PINs: from the terminal with echo off (the prompt on standard
/// error), or one line of standard input when that is not a terminal.
/// Never from the command line, where other users' `ps` would see it.
enum PINInput {
    /// Asks on the terminal without echo when `io`'s standard input is one,
    /// else reads its next line; `field` names it in errors.
    static func read(prompt: String, field: String, io: CommandIO) throws -> String {
        if io.stdinIsTerminal { return try readHidden(prompt: prompt, field: field, io: io) }
        return try line(field: field, io: io)
    }

    /// The next line of standard input, without its line ending. Read a
    /// byte at a time (`CommandIO.stdin`), so nothing after the line is
    /// taken from a command that inherits standard input (`exec
    /// --pin-stdin`); a line longer than any PIN is read to its end but
    /// kept only in part, which the PIN rules then refuse.
    static func line(field: String, io: CommandIO) throws -> String {
        guard var line = io.stdin.readLine(limit: 64) else {
            throw io.fail("\(field): standard input ended before it was given", .usage)
        }
        if line.utf8.last == UInt8(ascii: "\r") { line = String(decoding: line.utf8.dropLast(), as: UTF8.self) }
        return line
    }

    /// The terminal's settings while echo is off, to put back on Ctrl-C.
    nonisolated(unsafe) private static var saved = termios()

    /// Echo off on descriptor 0, the terminal `io.stdinIsTerminal` says it is.
    /// Echo goes off before the prompt is written, as `getpass` does: a
    /// PIN typed as soon as the prompt shows is neither echoed nor lost.
    private static func readHidden(prompt: String, field: String, io: CommandIO) throws -> String {
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { throw io.fail("\(field): cannot read the terminal's settings", .failure) }
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
        io.stderr.write(prompt)
        return try line(field: field, io: io)
    }
}

/// `--pin-stdin` and `--operator-pin`: how a command that acts as an account
/// with a PIN (switching to it, using its tokens outside a session where it
/// is active, disconnecting its identities) is given that PIN.
struct PINProofOptions: ParsableArguments {
    @Flag(name: .long, help: "Read the account's PIN (or, with --operator-pin, the operator PIN) as one line of standard input.")
    var pinStdin = false

    @Flag(name: .customLong("operator-pin"), help: "Ask for the operator PIN instead of the account's own.")
    var operatorPIN = false

    /// The PIN to act as `account` with, when it has one and one is
    /// `needed`: from standard input with `--pin-stdin`, else asked on the
    /// terminal. `--pin-stdin`'s line is read whether or not it is needed,
    /// so it never reaches a command that inherits standard input. A PIN
    /// locked out after wrong tries is refused before anything is asked.
    func proof(for account: Account, in database: AppDatabase, needed: Bool = true, io: CommandIO) throws -> PINProof? {
        let field = operatorPIN ? "operator PIN" : "PIN"
        let given = pinStdin ? try PINInput.line(field: field, io: io) : nil
        guard needed, try database.hasPIN(.account(account.id)) else { return nil }
        let owner: PINOwner = operatorPIN ? .operatorPIN : .account(account.id)
        if let until = try database.pinAttempts(of: owner).lockedUntil {
            let named = operatorPIN ? owner.description : "\(account.name)'s PIN (account \(account.id))"
            throw StoreError.pinLockedOut(named, until: until)
        }
        let pin: String
        if let given {
            pin = given
        } else if io.stdinIsTerminal {
            pin = try PINInput.read(prompt: operatorPIN ? "Operator PIN: " : "PIN for \(account.name.displaySafe): ", field: field, io: io)
        } else {
            throw io.fail("\(account.name.displaySafe) has a PIN and standard input is not a terminal; "
                + "give the PIN on standard input with --pin-stdin (the operator PIN with --operator-pin)", .pinRequired)
        }
        return operatorPIN ? .operatorPIN(pin) : .account(pin)
    }
}
