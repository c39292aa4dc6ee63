import Foundation

/// How many rows of each table a copy moved.
public struct CopyReport: Hashable, Sendable {
    /// Table name and rows, in the order they were copied.
    public let tables: [(table: String, rows: Int)]

    public static func == (a: CopyReport, b: CopyReport) -> Bool {
        a.tables.map(\.table) == b.tables.map(\.table) && a.tables.map(\.rows) == b.tables.map(\.rows)
    }

    public func hash(into hasher: inout Hasher) {
        for (table, rows) in tables {
            hasher.combine(table)
            hasher.combine(rows)
        }
    }
}

/// The store's tables as a copy moves them: every column with the kind of
/// value it holds, parents before children. `StoreCopyTests` checks that
/// it names every column of every table the migrations make.
enum CopiedTables {
    enum Kind { case integer, real, text, bool, date, blob }

    static let tables: [(name: String, columns: [(String, Kind)], key: String)] = [
        ("account", [
            ("id", .integer), ("name", .text), ("nameKey", .text), ("createdAt", .date), ("lastUsedAt", .date), ("useCount", .integer),
        ], "id"),
        ("identity", [
            ("provider", .text), ("subject", .text), ("accountId", .integer), ("displayName", .text), ("email", .text), ("emailKey", .text),
            ("emailVerified", .bool), ("state", .text), ("linkedAt", .date), ("checkedAt", .date), ("login", .text),
        ], "provider, subject"),
        ("credential", [
            ("provider", .text), ("subject", .text), ("accessToken", .text), ("refreshToken", .text), ("idToken", .text),
            ("tokenType", .text), ("scope", .text), ("expiresAt", .date), ("updatedAt", .date),
        ], "provider, subject"),
        ("session", [("key", .text), ("accountId", .integer), ("updatedAt", .date), ("lifetime", .text)], "key"),
        ("favourite", [("accountId", .integer), ("showId", .text), ("createdAt", .date)], "accountId, showId"),
        ("providerData", [("provider", .text), ("subject", .text), ("key", .text), ("value", .blob), ("fetchedAt", .date)],
         "provider, subject, key"),
        ("pin", [
            ("owner", .text), ("accountId", .integer), ("algorithm", .text), ("rounds", .integer), ("salt", .blob), ("hash", .blob),
            ("setAt", .date), ("failures", .integer), ("lastFailureAt", .date),
        ], "owner"),
        ("event", [("id", .integer), ("at", .date), ("session", .text), ("kind", .text), ("accountId", .integer), ("detail", .text), ("origin", .text), ("accountName", .text), ("accountNameKey", .text)], "id"),
        ("station", [
            ("station", .text), ("terminal", .text), ("session", .text), ("version", .text), ("startedAt", .date), ("lastKeyAt", .date),
            ("heartbeatAt", .date), ("heartbeatSeconds", .integer), ("handOffRunning", .bool), ("stoppedAt", .date), ("instance", .text), ("clockSkew", .real),
        ], "station, terminal"),
    ]

    /// How a table's rows are read on `dialect`: on a shared store the
    /// tokens come unsealed through the owner's `switchboard_tokens`.
    static func select(_ table: (name: String, columns: [(String, Kind)], key: String), on dialect: SQLDialect) -> String {
        if table.name == "credential", dialect == .postgres {
            return """
                SELECT credential.provider, credential.subject, tokens.token_access, tokens.token_refresh, tokens.token_id,
                  tokens.token_type, tokens.token_scope, tokens.token_expires, credential.updatedAt
                FROM credential, LATERAL switchboard_tokens(credential.provider, credential.subject) AS tokens
                ORDER BY credential.provider, credential.subject
                """
        }
        return "SELECT \(table.columns.map(\.0).joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.key)"
    }

    /// How one row goes into a table on `dialect`: on a shared store tokens
    /// are sealed by the owner's `switchboard_save_tokens` (its arguments
    /// are the copied columns, in their order).
    static func insert(_ table: (name: String, columns: [(String, Kind)], key: String), on dialect: SQLDialect) -> String {
        let columns = table.columns.map(\.0)
        if table.name == "credential", dialect == .postgres {
            return "SELECT switchboard_save_tokens($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::timestamptz, $9::timestamptz)"
        }
        return "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
    }

    /// A cell as the value to bind, by its column's kind.
    static func value(_ row: any SQLRow, _ column: Int, _ kind: Kind) throws -> SQLValue {
        if row.isNull(column) { return .null }
        switch kind {
        case .integer: return .integer(try row.integer(column))
        case .real: return .real(try row.real(column))
        case .text: return .text(try row.text(column))
        case .bool: return .bool(try row.bool(column))
        case .date: return .date(try row.date(column))
        case .blob: return .blob(try row.bytes(column))
        }
    }
}

/// A value already made, bound as it is.
private struct Bound: SQLBindable {
    let sqlValue: SQLValue
}

extension AppDatabase {
    /// Copies this store whole into `target`: accounts, identities, tokens,
    /// sessions, favourites, provider data, PINs with their counts, and
    /// events, with their ids. The target must be empty; everything is read
    /// in one snapshot here and written in one transaction there, and the
    /// rows of each table are counted there before it commits: a target
    /// left with other counts gets nothing.
    public func copy(to target: AppDatabase) throws(StoreError) -> CopyReport {
        let rows: [(table: String, rows: [[SQLValue]])] = try read { db in
            try CopiedTables.tables.map { table in
                let rows = try db.map(CopiedTables.select(table, on: db.dialect)) { row in
                    try table.columns.enumerated().map { index, column in try CopiedTables.value(row, index, column.1) }
                }
                return (table.name, rows)
            }
        }
        return try target.write { db in
            for table in CopiedTables.tables {
                let count = try db.value("SELECT count(*) FROM \(table.name)", as: Int.self) ?? 0
                if count > 0 {
                    throw StoreError.unavailable(path: target.path, detail: "the store to copy into is not empty (its \(table.name) table has "
                        + "\(count) rows); a copy goes only into an empty store. Nothing was changed")
                }
            }
            for ((name, copied), table) in zip(rows, CopiedTables.tables) {
                let columns = table.columns.map(\.0)
                let sql = CopiedTables.insert(table, on: db.dialect)
                for row in copied { try db.execute(sql, row.map { Bound(sqlValue: $0) }) }
                if let next = db.dialect.continueIDs(of: name, column: "id"), columns.contains("id") { try db.execute(next) }
            }
            // A shared store counts each PIN's wrong tries in a sequence of its own too: made for the PINs copied.
            if db.dialect == .postgres { try db.execute("SELECT switchboard_pin_counters()") }
            // Counted where they landed, inside the same transaction.
            var report: [(String, Int)] = []
            for (name, copied) in rows {
                let landed = try db.value("SELECT count(*) FROM \(name)", as: Int.self) ?? -1
                guard landed == copied.count else {
                    throw StoreError.unavailable(path: target.path, detail: "\(name): \(copied.count) rows read, \(landed) written; nothing was changed")
                }
                report.append((name, landed))
            }
            return CopyReport(tables: report)
        }
    }
}
