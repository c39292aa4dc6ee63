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
/// instance's own events as it passes them.
public final class ChangeReader: Sendable {
    private let database: AppDatabase
    private let follower: any ChangeFollower
    /// The last event read; nil until the store was first reached.
    private let position: Mutex<Int64?>

    /// Starts after the newest event now in the log. A shared store whose
    /// server cannot be reached yet is no error: the reader then starts
    /// after the newest event there is when it is first reached (whoever
    /// follows it reads the whole store then anyway).
    public init(_ database: AppDatabase) throws(StoreError) {
        self.database = database
        let first = database.ownEvents.withLock { own in
            defer { own = own ?? [] }
            return own == nil
        }
        guard first else { throw .unavailable(path: database.path, detail: "another change reader already follows this database") }
        position = Mutex(nil)
        do {
            follower = try database.engine.follower()
        } catch {
            database.ownEvents.withLock { $0 = nil }
            throw error
        }
        do {
            try start()
        } catch .offline {
        } catch {
            database.ownEvents.withLock { $0 = nil }
            throw error
        }
    }

    /// Reads where the log ends, if the reader has no cursor yet.
    private func start() throws(StoreError) {
        guard position.withLock({ $0 == nil }) else { return }
        do {
            let last = try follower.readIfChanged { db in try db.value("SELECT max(id) FROM event", as: Int64.self) ?? 0 } ?? 0
            position.withLock { $0 = $0 ?? last }
        } catch {
            throw database.engine.storeError(error)
        }
    }

    /// The id of the last event read (0 before the store was first reached).
    public var cursor: Int64 { position.withLock { $0 ?? 0 } }

    /// What was logged since the last call, but by `database` itself, in
    /// log order; empty, without reading the log, when nobody has committed.
    /// `previous(session)` is who that session acted as, as far as the
    /// caller knows (it becomes the changes' `previous`).
    public func changes(previous: (SessionKey) -> ActiveAccount) throws(StoreError) -> [StoreChange] {
        guard let cursor = position.withLock({ $0 }) else {
            try start()
            return []
        }
        let read: (changes: [StoreChange], last: Int64?)?
        do {
            // One read: the log and the accounts it names, as of the same moment.
            read = try follower.readIfChanged { db in
                var known: [SessionKey: ActiveAccount] = [:]
                var changes: [StoreChange] = []
                var last: Int64?
                let events = try db.map(
                    "SELECT id, kind, session, accountId, detail FROM event WHERE id > $1 ORDER BY id", [cursor]
                ) { row in
                    (id: try row[0] as Int64, event: LoggedEvent(kind: try row[1], session: try row[2], account: try row[3], detail: try row[4]))
                }
                for (id, event) in events {
                    last = id
                    // Visible, so committed, so noted before if it is ours.
                    guard !database.ownEvents.withLock({ $0?.contains(id) ?? false }) else { continue }
                    changes += try Self.changes(
                        for: event, stored: { try AppDatabase.stored(db, name: $0).active }, previous: { known[$0] ?? previous($0) },
                        remember: { known[$0] = $1 })
                }
                return (changes, last)
            }
        } catch {
            throw database.engine.storeError(error)
        }
        guard let read else { return [] }
        if let last = read.last {
            position.withLock { $0 = last }
            database.ownEvents.withLock { own in own = own?.filter { $0 > last } }
        }
        return read.changes
    }

    /// The changes a write's notification carries (`ChangePayload`), when
    /// they follow on from the cursor: no read at all. When they do not (a
    /// notification missed, ids taken by a write that rolled back), or the
    /// payload cannot be read, the log is read from the cursor as after any
    /// wake-up: the log stays the truth.
    public func changes(pushed payload: String, previous: (SessionKey) -> ActiveAccount) throws(StoreError) -> [StoreChange] {
        guard let cursor = position.withLock({ $0 }), let pushed = ChangePayload.decode(payload),
            let first = pushed.events.first, first.id == cursor + 1,
            zip(pushed.events, pushed.events.dropFirst()).allSatisfy({ $0.id + 1 == $1.id })
        else { return try changes(previous: previous) }
        var known: [SessionKey: ActiveAccount] = [:]
        var changes: [StoreChange] = []
        for event in pushed.events where !database.ownEvents.withLock({ $0?.contains(event.id) ?? false }) {
            do {
                changes += try Self.changes(
                    for: event.logged, stored: { name in pushed.sessions[name]?.active ?? .anonymous }, previous: { known[$0] ?? previous($0) },
                    remember: { known[$0] = $1 })
            } catch {
                return try self.changes(previous: previous)
            }
        }
        let last = pushed.events.last?.id ?? cursor
        position.withLock { $0 = last }
        database.ownEvents.withLock { own in own = own?.filter { $0 > last } }
        return changes
    }

    /// The bus events one logged event stands for; `stored(name)` is who
    /// the session stored under that name acts as now.
    private static func changes(
        for event: LoggedEvent, stored: (String) throws -> ActiveAccount, previous: (SessionKey) -> ActiveAccount,
        remember: (SessionKey, ActiveAccount) -> Void
    ) throws -> [StoreChange] {
        let session = event.session.map { SessionKey(stored: $0) }
        /// Who the event's session acts as in this read's snapshot, if that
        /// is news (later events in the same read may change it again).
        func status() throws -> [StoreChange] {
            guard let session else { return [] }
            let current = try stored(session.rawValue)
            let before = previous(session)
            remember(session, current)
            // Several events in one read may leave a session as it was.
            guard current != before else { return [] }
            return [.status(UserStatusChanged(session: session, previous: before, current: current, reason: .external))]
        }
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
