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
public final class ChangeReader: Sendable {
    private let database: AppDatabase
    private let connection: DatabaseQueue
    /// The last event read, and the data version seen then.
    private let position: Mutex<(cursor: Int64, version: Int64)>

    /// Starts after the newest event now in the log.
    public init(_ database: AppDatabase) throws(StoreError) {
        self.database = database
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(10)
            configuration.label = "switchboard-changes"
            connection = try DatabaseQueue(path: database.path, configuration: configuration)
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
        let read: (rows: [EventRecord], version: Int64)
        do {
            read = try connection.read { db in
                let now = try Self.dataVersion(db)
                guard now != version else { return ([], now) }
                return (try EventRecord.filter(Column("id") > cursor).order(Column("id")).fetchAll(db), now)
            }
        } catch {
            throw AppDatabase.storeError(error, path: database.path)
        }
        guard let last = read.rows.last?.id else {
            position.withLock { $0.version = read.version }
            return []
        }
        let own = database.ownEvents.withLock { own in
            defer { own = own.filter { $0 > last } }
            return own
        }
        let others = read.rows.filter { !own.contains($0.id ?? 0) }
        var known: [SessionKey: ActiveAccount] = [:]
        var changes: [StoreChange] = []
        for event in others {
            changes += try change(for: event, previous: { known[$0] ?? previous($0) }, remember: { known[$0] = $1 })
        }
        position.withLock { $0 = (last, read.version) }
        return changes
    }

    /// The bus events one logged event stands for.
    private func change(
        for event: EventRecord, previous: (SessionKey) -> ActiveAccount, remember: (SessionKey, ActiveAccount) -> Void
    ) throws(StoreError) -> [StoreChange] {
        let detail = (try? JSONDecoder().decode([String: String].self, from: Data(event.detail.utf8))) ?? [:]
        let session = event.session.map(SessionKey.init(stored:))
        func status(_ current: ActiveAccount) -> StoreChange? {
            guard let session else { return nil }
            defer { remember(session, current) }
            return .status(UserStatusChanged(session: session, previous: previous(session), current: current, reason: .external))
        }
        let account = event.accountId.map { AccountID($0) }
        switch event.kind {
        case "switch":
            return [status(try active(account))].compactMap { $0 }
        case "signIn", "link", "merge":
            return [.accounts(AccountsChanged(accounts: account.map { [$0] } ?? [])), status(try active(account))].compactMap { $0 }
        case "signOut":
            return [status(.anonymous)].compactMap { $0 }
        case "disconnect":
            return [.accounts(AccountsChanged(accounts: account.map { [$0] } ?? []))]
        case "check":
            guard let identity = detail["identity"].flatMap(Identity.init(parsing:)),
                let current = detail["state"].flatMap(CredentialState.init(rawValue:))
            else { return [] }
            let before = detail["previous"].flatMap(CredentialState.init(rawValue:)) ?? current
            return [.identity(IdentityStateChanged(identity: identity, previous: before, current: current))]
        default:
            return []
        }
    }

    /// The account as it is now, or anonymous if it is gone.
    private func active(_ account: AccountID?) throws(StoreError) -> ActiveAccount {
        guard let account, let found = try database.account(account) else { return .anonymous }
        return .account(found)
    }

    private static func dataVersion(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }
}
