import Dispatch
import Foundation
import Store
import Services
import SwitchboardCore

/// `status --watch`: the status now, then a line for each change of who a
/// session acts as, made by any process, until interrupted. For status bars
/// and scripts: every line is written at once (no buffering), Ctrl-C ends
/// it with status 0, and a closed pipe ends it quietly.
enum StatusWatch {
    /// `status --watch --json`: `{"session", "active": null | {…}, "reason", "at"}`.
    struct Line: Encodable {
        let session: String
        @Null var active: StatusJSON.Active?
        /// `current` for the first line, then `changed`.
        let reason: String
        /// When this process saw it, ISO 8601.
        let at: String

        init(_ status: StatusJSON, reason: String, at date: Date) {
            session = status.session
            active = status.active
            self.reason = reason
            at = ISO8601DateFormatter().string(from: date)
        }
    }

    /// Watches `session` (every session with `all`) in `database`; never returns.
    static func run(database: AppDatabase, session: SessionKey, all: Bool, json: Bool) async throws -> Never {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .main)
        interrupt.setEventHandler { exit(0) }
        interrupt.resume()

        exitWhenNobodyReads()
        let bus = NotificationBus()
        let shown = ShownStatus()
        // Subscribed and fed before the first line is read, so that nothing
        // committed after it is missed; a change that arrives first and then
        // the same status read again print once.
        let subscription = bus.subscribe(UserStatusChanged.self, on: .inline) { change in
            guard all || change.session == session else { return }
            shown.show(change.current, in: change.session, reason: "changed", json: json)
        }
        // A shared store's server going away and coming back is said on standard error; the watch goes on.
        let reachability = bus.subscribe(StoreReachabilityChanged.self, on: .inline) { change in
            let text = change.online ? "the store is back; reading what changed meanwhile" : "\(change.detail); retrying"
            FileHandle.standardError.write(Data("switchboard: \(text)\n".utf8))
        }
        let feed = try ChangeFeed(database: database, bus: bus, sessions: all ? .all : .only([session])) { error in
            FileHandle.standardError.write(Data("switchboard: \(error)\n".utf8))
        }
        shown.show(try database.active(in: session), in: session, reason: "current", json: json)
        while true {
            try await Task.sleep(for: .seconds(365 * 86_400))
            withExtendedLifetime((feed, subscription, reachability, interrupt)) {}
        }
    }

    /// Ends the process (status 0) as soon as standard output's reader goes
    /// away, not at the next line: a thread waits in `poll` for the error
    /// or hang-up, which costs no wake-ups until then.
    static func exitWhenNobodyReads() {
        let thread = Thread {
            var output = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while poll(&output, 1, -1) < 0 && errno == EINTR {}
            if output.revents & Int16(POLLERR | POLLHUP) != 0 { exit(0) }
        }
        thread.start()
    }

    /// What was last written per session, so that only real changes print.
    final class ShownStatus: @unchecked Sendable {
        private let lock = NSLock()
        private var last: [SessionKey: AccountID?] = [:]

        func show(_ active: ActiveAccount, in session: SessionKey, reason: String, json: Bool) {
            lock.lock()
            defer { lock.unlock() }
            if let seen = last[session], seen == active.id { return }
            last[session] = active.id
            let text = json ? jsonLine(Line(StatusJSON(session: session, active: active), reason: reason, at: Date()))
                : describe(active, in: session)
            writeLine(text)
        }
    }

    /// Writes `text` and a newline to standard output now; exits quietly
    /// (status 0) when nobody reads it any more, with status 1 and a
    /// message on any other failure.
    static func writeLine(_ text: String) {
        var bytes = Array((text + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                var output = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                _ = poll(&output, 1, -1)
            case EPIPE: exit(0)
            default:
                FileHandle.standardError.write(Data("switchboard: cannot write the status: \(String(cString: strerror(errno)))\n".utf8))
                exit(1)
            }
        }
    }
}
