import Dispatch
import Foundation
import Synchronization
import SwitchboardCore

/// A change another process made to the store, as the bus carries it.
public enum StoreChange: Sendable, Hashable {
    /// Who a session acts as changed (reason `.external`).
    case status(UserStatusChanged)
    /// Accounts or their identities were added, removed or merged.
    case accounts(AccountsChanged)
    /// A credential check found an identity in a new state.
    case identity(IdentityStateChanged)
}

/// Reads the event log from a cursor, on a connection of its own (the
/// engine's `ChangeFollower`), for a change feed: what other processes (and
/// other `AppDatabase` instances) wrote since the last look. On SQLite,
/// `PRAGMA data_version` tells, without reading the log, whether anyone
/// committed. One reader follows an `AppDatabase` at a time: it forgets the
/// instance's own events as it passes them. On a shared store, a write's
/// notification may carry what it did (`changes(pushed:)`), which needs no
/// read when it follows on from the cursor.
///
/// It keeps who each session it follows acts as (only those acting as
/// someone: a session acting as nobody, or whose terminal ended, is
/// forgotten), and so reports only real changes. A backlog of up to two
/// pages is replayed event by event; a longer one (a burst of writes while
/// it was not looking) is not: the reader reads the current state once
/// instead, so catching up costs about the same however long the backlog.
/// On SQLite its mark in the marks file (`ReaderMark`) keeps pruning from
/// deleting events it has not read.
public final class ChangeReader: Sendable {
    /// The sessions whose status a reader reports.
    public enum Sessions: Hashable, Sendable {
        /// Every session.
        case all
        /// Only these.
        case only(Set<SessionKey>)

        func contains(_ session: SessionKey) -> Bool {
            switch self {
            case .all: true
            case .only(let sessions): sessions.contains(session)
            }
        }
    }

    private let database: AppDatabase
    private let follower: any ChangeFollower
    private let sessions: Sessions
    /// Events replayed at most per look: a longer backlog is caught up with
    /// the current state instead.
    let pageSize: Int
    /// Where this reader is, for pruning to see (SQLite's; nil elsewhere).
    private let mark: ReaderMark?
    /// Nil until the store was first reached (a shared store's server may
    /// be down when the reader starts).
    private let state: Mutex<ReaderState?>

    /// Where the reader is, and what it knows.
    private struct ReaderState {
        /// The last event read.
        var cursor: Int64
        /// Who each followed session acting as someone acts as, as last reported.
        var known: [SessionKey: ActiveAccount]
        /// Sessions this instance itself chose for since: `known` may be out
        /// of date for them, so their next change by another is reported
        /// whatever `known` says (a kiosk's own sign-in, then an operator's
        /// sign-out of it from elsewhere).
        var unsure: Set<SessionKey> = []
    }

    /// Starts after the newest event now in the log, reporting the status
    /// of `sessions`; a backlog longer than two pages of `pageSize` events
    /// is caught up with the current state.
    public init(_ database: AppDatabase, following sessions: Sessions = .all, pageSize: Int = 500) throws(StoreError) {
        self.database = database
        self.sessions = sessions
        self.pageSize = max(1, pageSize)
        let first = database.ownEvents.withLock { own in
            defer { own = own ?? [] }
            return own == nil
        }
        guard first else { throw .unavailable(path: database.path, detail: "another change reader already follows this database") }
        mark = database.engine.readerMarksPath.map { ReaderMark(path: $0) }
        state = Mutex(nil)
        do {
            follower = try database.engine.follower()
        } catch {
            database.ownEvents.withLock { $0 = nil }
            throw error
        }
        do {
            try start()
        } catch .offline {
            // Started when the server is first reached.
        } catch {
            database.ownEvents.withLock { $0 = nil }
            throw error
        }
    }

    /// Reads where the log ends and who the followed sessions act as, if
    /// the reader has not yet.
    private func start() throws(StoreError) {
        guard state.withLock({ $0 == nil }) else { return }
        let sessions = sessions
        let started: ReaderState?
        do {
            started = try follower.readIfChanged { db in
                var known: [SessionKey: ActiveAccount] = [:]
                // The few sessions asked for are known from the start; with all of them, from their first event on.
                if case .only(let followed) = sessions {
                    for session in followed {
                        let (active, _) = try AppDatabase.stored(db, name: session.rawValue)
                        if active != .anonymous { known[session] = active }
                    }
                }
                return ReaderState(cursor: try db.value("SELECT max(id) FROM event", as: Int64.self) ?? 0, known: known)
            }
        } catch {
            throw database.engine.storeError(error)
        }
        guard let started else { return }
        state.withLock { $0 = $0 ?? started }
        mark?.move(to: started.cursor &+ 1)
    }

    /// The id of the last event read (0 before the store was first reached).
    public var cursor: Int64 { state.withLock { $0?.cursor ?? 0 } }

    /// How many sessions the reader keeps a status for.
    public var sessionsKnown: Int { state.withLock { $0?.known.count ?? 0 } }

    /// What was logged since the last call, but by `database` itself, in
    /// log order; empty, without reading the log, when nobody has committed.
    /// A status change's `previous` is the status this reader last knew.
    public func changes() throws(StoreError) -> [StoreChange] {
        guard var current = state.withLock({ $0 }) else {
            try start()
            return []
        }
        let changes: [StoreChange]?
        var caughtUp = false
        do {
            // One read: the log and the accounts it names, as of the same moment.
            changes = try follower.readIfChanged { db in
                let far = try db.value(
                    "SELECT id FROM event WHERE id > $1 ORDER BY id LIMIT 1 OFFSET $2", [current.cursor, 2 * pageSize], as: Int64.self)
                caughtUp = far != nil
                return try caughtUp ? catchUp(db, &current) : replay(db, &current)
            }
        } catch {
            throw database.engine.storeError(error)
        }
        // What the scan of a long backlog left cached goes.
        if caughtUp { follower.releaseMemory() }
        guard let changes else { return [] }
        passed(current)
        return changes
    }

    /// The changes a write's notification carries (`ChangePayload`), when
    /// they follow on from the cursor and the log holds exactly those
    /// events: one indexed read of their ids, and none of the sessions'
    /// states. A notification is only a wake-up (any role that may connect
    /// to the database may send one on the channel), so a payload whose
    /// events do not follow on from the cursor, are not all in the log as
    /// it says (forged, or ids taken by a write that rolled back), or
    /// cannot be read, is not taken: the log is read from the cursor as
    /// after any wake-up. The log stays the truth; the cursor only ever
    /// passes events read from it.
    public func changes(pushed payload: String) throws(StoreError) -> [StoreChange] {
        guard var current = state.withLock({ $0 }), let pushed = ChangePayload.decode(payload),
            // Ids are whatever the log holds (a role that may choose them chose Int64.max): no arithmetic may trap.
            let first = pushed.events.first, let last = pushed.events.last, current.cursor < Int64.max, first.id == current.cursor + 1,
            zip(pushed.events, pushed.events.dropFirst()).allSatisfy({ $0.id < Int64.max && $0.id + 1 == $1.id })
        else { return try changes() }
        guard try confirmed(pushed.events, from: first.id, to: last.id) else { return try changes() }
        var changes: [StoreChange] = []
        for event in pushed.events {
            current.cursor = event.id
            do {
                changes += try take(event.logged, id: event.id, into: &current) { name in pushed.sessions[name]?.active ?? .anonymous }
            } catch {
                return try self.changes()
            }
        }
        passed(current)
        return changes
    }

    /// Whether the log holds exactly `events` (ids `first` to `last`, each
    /// with the kind, session, account and detail given): one read by the
    /// primary key.
    private func confirmed(_ events: [ChangePayload.Event], from first: Int64, to last: Int64) throws(StoreError) -> Bool {
        do {
            let stored = try follower.readStatement { db in
                try db.map("SELECT id, kind, session, accountId, detail FROM event WHERE id >= $1 AND id <= $2 ORDER BY id", [first, last]) { row in
                    ChangePayload.Event(id: try row[0], kind: try row[1], session: try row[2], account: try row[3], detail: try row[4])
                }
            }
            guard let stored else { return false }
            return stored == events
        } catch {
            throw database.engine.storeError(error)
        }
    }

    /// The reader has read up to `current`: it keeps it, forgets its
    /// instance's own events passed, and moves its mark.
    private func passed(_ current: ReaderState) {
        state.withLock { $0 = current }
        let last = current.cursor
        database.ownEvents.withLock { own in own = own?.filter { $0 > last } }
        mark?.move(to: last &+ 1)
    }

    /// What one event means for the bus, unless it is this instance's own;
    /// `stored(name)` is who the session stored under that name acts as.
    private func take(
        _ event: LoggedEvent, id: Int64, into state: inout ReaderState, stored: (String) throws -> ActiveAccount
    ) throws -> [StoreChange] {
        let session = event.session.map { SessionKey(stored: $0) }.flatMap { sessions.contains($0) ? $0 : nil }
        // Visible, so committed, so noted before if it is ours: published by this process already.
        guard !database.ownEvents.withLock({ $0?.contains(id) ?? false }) else {
            if let session { state.unsure.insert(session) }
            return []
        }
        if event.kind == "ended", let session {
            // A closed terminal's session: nobody acts in it any more.
            state.known[session] = nil
            state.unsure.remove(session)
            return []
        }
        return try Self.changes(for: event) {
            guard let session else { return [] }
            return Self.report(try stored(session.rawValue), in: session, state: &state)
        }
    }

    /// The events after the cursor (at most two pages), one by one.
    private func replay(_ db: any SQLConnection, _ state: inout ReaderState) throws -> [StoreChange] {
        var changes: [StoreChange] = []
        // Who each session acts as in this read's snapshot, read once per session.
        var resolved: [String: ActiveAccount] = [:]
        let events = try db.map(
            "SELECT id, kind, session, accountId, detail FROM event WHERE id > $1 ORDER BY id LIMIT $2", [state.cursor, 2 * pageSize]
        ) { row in (id: try row[0] as Int64, event: LoggedEvent(kind: try row[1], session: try row[2], account: try row[3], detail: try row[4])) }
        for (id, event) in events {
            state.cursor = id
            changes += try take(event, id: id, into: &state) { name in
                let current = try resolved[name] ?? AppDatabase.stored(db, name: name).active
                resolved[name] = current
                return current
            }
        }
        return changes
    }

    /// A long backlog, caught up at once, in one scan of it: the accounts
    /// whose identities its events changed (any account, past
    /// `accountsNamed` of them), and the current status of each followed
    /// session it names, where that is news. Nothing is replayed, so an
    /// identity's new state shows only in the accounts read again. A reader
    /// of a few sessions scans nothing: it reads their status, and says any
    /// account may have changed.
    private func catchUp(_ db: any SQLConnection, _ state: inout ReaderState) throws -> [StoreChange] {
        let last = try db.value("SELECT max(id) FROM event", as: Int64.self) ?? state.cursor
        var named: Set<String> = [], accounts: Set<Int64> = []
        switch sessions {
        case .only(let followed):
            named = Set(followed.map(\.rawValue))
            accounts = []
        case .all:
            // The sessions and accounts the backlog names, but in this instance's own events.
            let own = database.ownEvents.withLock { $0?.filter { $0 > state.cursor } ?? [] }.sorted()
            let notOwn = own.isEmpty || own.count > 500 ? "" : "AND id NOT IN (\(placeholders(own.count, from: 3)))"
            try db.each("""
                SELECT DISTINCT session, CASE WHEN kind IN ('signIn', 'link', 'merge', 'disconnect', 'pin') THEN accountId END
                FROM event WHERE id > $1 AND id <= $2 \(notOwn)
                """, [state.cursor, last] + (notOwn.isEmpty ? [] : own)) { row in
                if let session: String = try row[0] { named.insert(session) }
                if let account: Int64 = try row[1], accounts.count <= Self.accountsNamed { accounts.insert(account) }
            }
        }
        state.cursor = last
        let changed = accounts.count > Self.accountsNamed || sessions != .all
            ? AccountsChanged.anyAccount : AccountsChanged(accounts: accounts.sorted().map { AccountID($0) })
        var changes: [StoreChange] = [.accounts(changed)]
        for name in named.sorted() {
            changes += Self.report(try AppDatabase.stored(db, name: name).active, in: SessionKey(stored: name), state: &state)
        }
        return changes
    }

    /// The most accounts a catch-up names; past them, any account may have changed.
    static let accountsNamed = 10_000

    /// A status change for `session`, now acting as `current`, if that is
    /// another account than `known` holds (or the session is `unsure`);
    /// `known` then holds it (nothing for nobody).
    private static func report(_ current: ActiveAccount, in session: SessionKey, state: inout ReaderState) -> [StoreChange] {
        let before = state.known[session] ?? .anonymous
        state.known[session] = current == .anonymous ? nil : current
        let unsure = state.unsure.remove(session) != nil
        // Several events may leave a session acting as whom it was (its identities may have changed: not news here).
        guard unsure || current.id != before.id else { return [] }
        return [.status(UserStatusChanged(session: session, previous: before, current: current, reason: .external))]
    }

    /// The bus events one logged event stands for; `status` gives its
    /// session's status change, if any.
    private static func changes(for event: LoggedEvent, status: () throws -> [StoreChange]) throws -> [StoreChange] {
        let accounts = AccountsChanged(accounts: event.account.map { [AccountID($0)] } ?? [])
        switch event.kind {
        case "switch", "signOut":
            return try status()
        case "signIn", "link", "merge", "disconnect":
            return [.accounts(accounts)] + (try status())
        case "pin":
            return [.accounts(accounts)]
        case "check":
            let detail = (try? JSONDecoder().decode([String: String].self, from: Data(event.detail.utf8))) ?? [:]
            guard let identity = detail["identity"].flatMap(Identity.init(parsing:)),
                let current = detail["state"].flatMap(CredentialState.init(rawValue:))
            else { return [] }
            let before = detail["previous"].flatMap(CredentialState.init(rawValue:)) ?? current
            return [.identity(IdentityStateChanged(identity: identity, previous: before, current: current))]
        default:
            return []
        }
    }
}

extension AppDatabase {
    /// Starts watching for other processes' commits (inotify on SQLite's
    /// files; `LISTEN` on PostgreSQL): `events` hears, on `queue`, of each
    /// wake-up, and of a server going away and coming back.
    public func watchChanges(
        on queue: DispatchQueue, _ events: @escaping @Sendable (ChangeWatchEvent) -> Void
    ) throws(StoreError) -> any ChangeWatch {
        try engine.watch(on: queue, events)
    }
}
