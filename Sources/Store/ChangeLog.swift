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
public final class ChangeReader: Sendable {
    private let database: AppDatabase
    private let connection: DatabaseQueue
    /// The last event read, and the data version seen then.
    private let position: Mutex<(cursor: Int64, version: Int64)>

    /// Starts after the newest event now in the log.
    public init(_ database: AppDatabase) throws(StoreError) {
        self.database = database
        let first = database.ownEvents.withLock { own in
            defer { own = own ?? [] }
            return own == nil
        }
        guard first else { throw .unavailable(path: database.path, detail: "another change reader already follows this database") }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            configuration.label = "switchboard-changes"
            // As the store itself reads a file in a folder this process may not write.
            connection = try DatabaseQueue(path: AppDatabase.readOnlyLocation(database.path), configuration: configuration)
            position = Mutex(try connection.read { db in
                (try Int64.fetchOne(db, sql: "SELECT max(id) FROM event") ?? 0, try Self.dataVersion(db))
            })
        } catch {
            throw AppDatabase.storeError(error, path: database.path)
        }
    }

    /// The id of the last event read.
    public var cursor: Int64 { position.withLock { $0.cursor } }

    /// What was logged since the last call, but by `database` itself, in
    /// log order; empty, without reading the log, when nobody has committed.
    /// `previous(session)` is who that session acted as, as far as the
    /// caller knows (it becomes the changes' `previous`).
    public func changes(previous: (SessionKey) -> ActiveAccount) throws(StoreError) -> [StoreChange] {
        let (cursor, version) = position.withLock { $0 }
        let read: (changes: [StoreChange], last: Int64?, version: Int64)
        do {
            // One read: the log and the accounts it names, as of the same moment.
            read = try connection.read { db in
                let now = try Self.dataVersion(db)
                guard now != version else { return ([], nil, now) }
                var known: [SessionKey: ActiveAccount] = [:]
                var changes: [StoreChange] = []
                var last: Int64?
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT id, kind, session, accountId, detail FROM event WHERE id > ? ORDER BY id", arguments: [cursor])
                while let row = try rows.next() {
                    let id: Int64 = row[0]
                    last = id
                    // Visible, so committed, so noted before if it is ours.
                    guard !database.ownEvents.withLock({ $0?.contains(id) ?? false }) else { continue }
                    let event = LoggedEvent(kind: row[1], session: row[2], account: row[3], detail: row[4])
                    changes += try Self.changes(for: event, db: db, previous: { known[$0] ?? previous($0) }, remember: { known[$0] = $1 })
                }
                return (changes, last, now)
            }
        } catch {
            throw AppDatabase.storeError(error, path: database.path)
        }
        position.withLock { $0 = (read.last ?? $0.cursor, read.version) }
        if let last = read.last { database.ownEvents.withLock { own in own = own?.filter { $0 > last } } }
        return read.changes
    }

    /// One row of the event log.
    private struct LoggedEvent {
        let kind: String
        let session: String?
        let account: Int64?
        /// A JSON object of strings.
        let detail: String
    }

    /// The bus events one logged event stands for.
    private static func changes(
        for event: LoggedEvent, db: Database, previous: (SessionKey) -> ActiveAccount, remember: (SessionKey, ActiveAccount) -> Void
    ) throws -> [StoreChange] {
        let session = event.session.map { SessionKey(stored: $0) }
        /// Who the event's session acts as in this read's snapshot, if that
        /// is news (later events in the same read may change it again).
        func status() throws -> [StoreChange] {
            guard let session else { return [] }
            let (current, _) = try AppDatabase.stored(db, name: session.rawValue)
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

    private static func dataVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }
}
