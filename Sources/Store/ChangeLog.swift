import Foundation
import GRDB
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

/// Reads the event log from a cursor, on a read-only connection of its own,
/// for a change feed: what other processes (and other `AppDatabase`
/// instances) wrote since the last look. `PRAGMA data_version` on this
/// connection tells, without reading the log, whether anyone committed.
/// One reader follows an `AppDatabase` at a time: it forgets the instance's
/// own events as it passes them.
///
/// It keeps who each session it follows acts as (only those acting as
/// someone: a session acting as nobody, or whose terminal ended, is
/// forgotten), and so reports only real changes. A backlog of up to two
/// pages is replayed event by event; a longer one (a burst of writes while
/// it was not looking) is not: the reader reads the current state once
/// instead, so catching up costs about the same however long the backlog.
/// Its mark in the marks file (`ReaderMark`) keeps pruning from deleting
/// events it has not read.
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
    private let connection: DatabaseQueue
    private let sessions: Sessions
    /// Events replayed at most per look: a longer backlog is caught up with
    /// the current state instead.
    let pageSize: Int
    private let mark: ReaderMark
    private let state: Mutex<ReaderState>

    /// Where the reader is, and what it knows.
    private struct ReaderState {
        /// The last event read.
        var cursor: Int64
        /// The data version seen then.
        var version: Int64
        /// Who each followed session acting as someone acts as, as last reported.
        var known: [SessionKey: ActiveAccount]
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
        mark = ReaderMark(path: database.readerMarksPath)
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            configuration.label = "switchboard-changes"
            // It reads the newest events and a few accounts: a small cache
            // does, and a catch-up's scan of a long backlog does not grow it.
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -256") }
            // As the store itself reads a file in a folder this process may not write.
            connection = try DatabaseQueue(path: AppDatabase.readOnlyLocation(database.path), configuration: configuration)
            state = Mutex(try connection.read { db in
                var known: [SessionKey: ActiveAccount] = [:]
                // The few sessions asked for are known from the start; with all of them, from their first event on.
                if case .only(let followed) = sessions {
                    for session in followed {
                        let (active, _) = try AppDatabase.stored(db, name: session.rawValue)
                        if active != .anonymous { known[session] = active }
                    }
                }
                return ReaderState(
                    cursor: try Int64.fetchOne(db, sql: "SELECT max(id) FROM event") ?? 0, version: try Self.dataVersion(db), known: known)
            })
        } catch {
            throw AppDatabase.storeError(error, path: database.path)
        }
        mark.move(to: cursor + 1)
    }

    /// The id of the last event read.
    public var cursor: Int64 { state.withLock { $0.cursor } }

    /// How many sessions the reader keeps a status for.
    public var sessionsKnown: Int { state.withLock { $0.known.count } }

    /// What was logged since the last call, but by `database` itself, in
    /// log order; empty, without reading the log, when nobody has committed.
    /// A status change's `previous` is the status this reader last knew.
    public func changes() throws(StoreError) -> [StoreChange] {
        var current = state.withLock { $0 }
        let changes: [StoreChange]
        do {
            // One read: the log and the accounts it names, as of the same moment.
            changes = try connection.read { db in
                let now = try Self.dataVersion(db)
                guard now != current.version else { return [] }
                current.version = now
                let far = try Int64.fetchOne(
                    db, sql: "SELECT id FROM event WHERE id > ? ORDER BY id LIMIT 1 OFFSET ?", arguments: [current.cursor, 2 * pageSize])
                return try far == nil ? replay(db, &current) : catchUp(db, &current)
            }
        } catch {
            throw AppDatabase.storeError(error, path: database.path)
        }
        state.withLock { $0 = current }
        let last = current.cursor
        database.ownEvents.withLock { own in own = own?.filter { $0 > last } }
        mark.move(to: last + 1)
        return changes
    }

    /// The events after the cursor (at most two pages), one by one.
    private func replay(_ db: Database, _ state: inout ReaderState) throws -> [StoreChange] {
        var changes: [StoreChange] = []
        // Who each session acts as in this read's snapshot, read once per session.
        var resolved: [SessionKey: ActiveAccount] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT id, kind, session, accountId, detail FROM event WHERE id > ? ORDER BY id LIMIT ?",
            arguments: [state.cursor, 2 * pageSize])
        while let row = try rows.next() {
            let id: Int64 = row[0]
            state.cursor = id
            // Visible, so committed, so noted before if it is ours.
            guard !database.ownEvents.withLock({ $0?.contains(id) ?? false }) else { continue }
            let event = LoggedEvent(kind: row[1], session: row[2], account: row[3], detail: row[4])
            let session = event.session.map { SessionKey(stored: $0) }.flatMap { sessions.contains($0) ? $0 : nil }
            if event.kind == "ended", let session {
                // A closed terminal's session: nobody acts in it any more.
                state.known[session] = nil
                continue
            }
            changes += try Self.changes(for: event) {
                guard let session else { return [] }
                let current = try resolved[session] ?? AppDatabase.stored(db, name: session.rawValue).active
                resolved[session] = current
                return Self.report(current, in: session, known: &state.known)
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
    private func catchUp(_ db: Database, _ state: inout ReaderState) throws -> [StoreChange] {
        let last = try Int64.fetchOne(db, sql: "SELECT max(id) FROM event") ?? state.cursor
        var named: Set<String> = [], accounts: Set<Int64> = []
        switch sessions {
        case .only(let followed):
            named = Set(followed.map(\.rawValue))
            accounts = []
        case .all:
            // The sessions and accounts the backlog names, but in this instance's own events.
            let own = database.ownEvents.withLock { $0?.filter { $0 > state.cursor } ?? [] }.sorted()
            let notOwn = own.isEmpty || own.count > 500 ? "" : "AND id NOT IN (\(databaseQuestionMarks(count: own.count)))"
            let rows = try Row.fetchCursor(db, sql: """
                SELECT DISTINCT session, CASE WHEN kind IN ('signIn', 'link', 'merge', 'disconnect', 'pin') THEN accountId END
                FROM event WHERE id > ? AND id <= ? \(notOwn)
                """, arguments: StatementArguments([state.cursor, last]) + (notOwn.isEmpty ? [] : StatementArguments(own)))
            while let row = try rows.next() {
                if let session: String = row[0] { named.insert(session) }
                if let account: Int64 = row[1], accounts.count <= Self.accountsNamed { accounts.insert(account) }
            }
        }
        state.cursor = last
        defer { db.releaseMemory() }  // what the scan cached
        let changed = accounts.count > Self.accountsNamed || sessions != .all
            ? AccountsChanged.anyAccount : AccountsChanged(accounts: accounts.sorted().map { AccountID($0) })
        var changes: [StoreChange] = [.accounts(changed)]
        for name in named.sorted() {
            changes += Self.report(try AppDatabase.stored(db, name: name).active, in: SessionKey(stored: name), known: &state.known)
        }
        return changes
    }

    /// The most accounts a catch-up names; past them, any account may have changed.
    static let accountsNamed = 10_000

    /// A status change for `session`, now acting as `current`, if that is
    /// another account than `known` holds; `known` then holds it (nothing
    /// for nobody).
    private static func report(_ current: ActiveAccount, in session: SessionKey, known: inout [SessionKey: ActiveAccount]) -> [StoreChange] {
        let before = known[session] ?? .anonymous
        known[session] = current == .anonymous ? nil : current
        // Several events may leave a session acting as whom it was (its identities may have changed: not news here).
        guard current.id != before.id else { return [] }
        return [.status(UserStatusChanged(session: session, previous: before, current: current, reason: .external))]
    }

    /// One row of the event log.
    private struct LoggedEvent {
        let kind: String
        let session: String?
        let account: Int64?
        /// A JSON object of strings.
        let detail: String
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

    private static func dataVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }
}
