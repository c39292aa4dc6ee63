import SwitchboardCore
import TerminalUI

/// The store's answer to a PIN typed in any dialog that asks for one.
public enum PINCheck: Hashable, Sendable {
    /// Right: what it opens goes ahead.
    case accepted
    /// Wrong, and counted; `retryAt` when the next try must wait.
    case wrong(retryAt: Moment?)
    /// Too many wrong PINs: nothing is looked at until `until`.
    case locked(until: Moment)
    /// Not checked: the store failed, or has no such PIN (said as the store said it).
    case failed
}

/// A PIN being typed, in every dialog that asks for one (the chooser's and
/// a station's PIN dialog, the operator menu's, the board's operator PIN):
/// digits by `PINEntry`'s rule, never drawn, only counted; Enter sends them
/// to be checked, and keys wait (but Esc) until the store answers; what the
/// answer found shows under the dots, a lockout's wait counting down.
public struct PINField: Hashable, Sendable {
    /// What has been typed; never drawn, only counted.
    public var digits = ""
    /// Set while the store checks the PIN; keys wait.
    public var checking = false
    /// The last try was wrong.
    public var wasWrong = false
    /// No try is looked at before this, after too many wrong ones.
    public var lockedUntil: Moment?
    /// Why the digits could not be checked (too few, the store offline), until the next key.
    public var problem: String?

    public init() {}

    /// The keys while too many wrong PINs make the field wait: only closing works.
    public static let lockedKeys = KeyMap<DialogCommand>([
        KeyBinding([.escape, .enter], .cancel, label: "close", help: "Close; try again when the wait is over"),
    ])

    /// Whether the wait after wrong PINs is still running at `now`.
    public func isLocked(at now: Moment) -> Bool { lockedUntil.map { now < $0 } ?? false }

    /// What a key did to the field.
    public enum Outcome: Hashable, Sendable {
        /// Typed into or erased, or a problem said in the field.
        case edited
        /// Enter with enough digits: check these (the field now waits, `checking`).
        case submit(String)
        /// Esc: close the dialog.
        case close
        /// Esc while the digits are checked: take the try back and close.
        case cancelCheck
        /// Nothing.
        case none
    }

    /// What `command` (from the dialog's key table; `key` for a digit typed) does at `now`.
    public mutating func handle(_ command: DialogCommand, key: Key, at now: Moment) -> Outcome {
        if checking { return command == .cancel ? .cancelCheck : .none }
        switch command {
        case .type:
            guard !isLocked(at: now), let typed = PINEntry.typing(key, after: digits) else { return .none }
            (digits, wasWrong, problem) = (typed, false, nil)
            return .edited
        case .erase:
            digits = PINEntry.erasing(digits)
            return .edited
        case .confirm:
            guard PINEntry.isComplete(digits) else {
                problem = PINEntry.rule
                return .edited
            }
            (checking, problem) = (true, nil)
            return .submit(digits)
        case .cancel, .close: return .close
        default: return .none
        }
    }

    /// The store's verdict on the digits sent: wrong or locked out is said
    /// here, and the PIN is typed again. (Accepted or failed, the dialog
    /// that holds the field decides what follows.)
    public mutating func checked(_ check: PINCheck) {
        (checking, digits, problem) = (false, "", nil)
        switch check {
        case .accepted, .failed: break
        case .wrong(let retryAt): (wasWrong, lockedUntil) = (true, retryAt)
        case .locked(let until): (wasWrong, lockedUntil) = (false, until)
        }
    }

    /// The digits could not be checked, for `problem`: said here, and the PIN is typed again.
    public mutating func refused(_ problem: String) {
        (checking, digits, wasWrong, self.problem) = (false, "", false, problem)
    }

    /// Draws the dots from row `y` of `inner`, and under them what the last
    /// try found or the wait's countdown at `now`.
    public func draw(in inner: Rect, y top: Int, theme: Theme, now: Moment, into buffer: inout Buffer) {
        var y = top
        guard y < inner.maxY else { return }
        let x = inner.x + buffer.write("PIN  ", x: inner.x, y: y, style: theme[.muted])
        buffer.write(String(repeating: "•", count: digits.count) + (checking ? "" : "▏"), x: x, y: y, style: theme[.code], limit: inner.maxX - x)
        y += 2
        guard y < inner.maxY else { return }
        let error = theme[.statusError]
        if checking {
            buffer.write("Checking…", x: inner.x, y: y, style: theme[.muted], limit: inner.width)
        } else if isLocked(at: now), let until = lockedUntil {
            if wasWrong {
                buffer.write("Wrong PIN.", x: inner.x, y: y, style: error, limit: inner.width)
                y += 1
            }
            DialogFrame.paragraph("Too many wrong PINs: try again in \(Countdown.text(now.distance(to: until))).", in: inner, y: y, style: error, into: &buffer)
        } else if let problem {
            DialogFrame.paragraph(problem.displaySafe, in: inner, y: y, style: error, into: &buffer)
        } else if wasWrong {
            buffer.write("Wrong PIN. Try again.", x: inner.x, y: y, style: error, limit: inner.width)
        }
    }
}
