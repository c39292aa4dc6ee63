import Foundation
import GRDB

/// A GRDB connection inside a transaction, as the store's rules use it.
/// Statements come with PostgreSQL's numbered parameters (`$1`); SQLite
/// reads the same numbers as `?1`.
struct SQLiteConnection: SQLConnection {
    let db: Database
    var dialect: SQLDialect { .sqlite }
    var isShared: Bool { false }

    @discardableResult
    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int {
        try db.execute(sql: Self.numbered(sql), arguments: Self.arguments(arguments))
        return db.changesCount
    }

    func each(_ sql: String, _ arguments: [any SQLBindable], _ body: (any SQLRow) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: Self.numbered(sql), arguments: Self.arguments(arguments))
        while let row = try rows.next() { try body(SQLiteRow(row: row)) }
    }

    static func arguments(_ values: [any SQLBindable]) -> StatementArguments {
        StatementArguments(values.map { value -> DatabaseValue in
            switch value.sqlValue {
            case .null: .null
            case .integer(let int): int.databaseValue
            case .real(let double): double.databaseValue
            case .text(let text): text.databaseValue
            case .blob(let bytes): Data(bytes).databaseValue
            case .bool(let bool): (bool ? 1 : 0).databaseValue
            // GRDB's own format ("yyyy-MM-dd HH:mm:ss.SSS", UTC), as files written before always held.
            case .date(let date): date.databaseValue
            }
        })
    }

    /// `$N` outside quotes becomes `?N`: SQLite's spelling of the same parameter.
    static func numbered(_ sql: String) -> String {
        guard sql.contains("$") else { return sql }
        var result = ""
        result.reserveCapacity(sql.utf8.count)
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                result.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                result.append(character)
            } else if character == "$" {
                result.append("?")
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// A GRDB row read by position, each cell by its storage class.
struct SQLiteRow: SQLRow {
    let row: Row

    private func cell(_ column: Int) -> DatabaseValue { row[column] as DatabaseValue }

    private func mismatch(_ column: Int, _ wanted: String) -> SQLDecodingError {
        SQLDecodingError(description: "column \(column) holds \(cell(column)) where \(wanted) was expected")
    }

    var columnCount: Int { row.count }
    func rendered(_ column: Int) -> String {
        switch cell(column).storage {
        case .null: "NULL"
        case .int64(let int): String(int)
        case .double(let double): "\(double)"
        case .string(let text): text
        case .blob(let data): PGText.bytea(Array(data))
        }
    }
    func isNull(_ column: Int) -> Bool { row.hasNull(atIndex: column) }

    func integer(_ column: Int) throws -> Int64 {
        switch cell(column).storage {
        case .int64(let int): return int
        case .double(let double): if let int = Int64(exactly: double) { return int }
        case .string(let text): if let int = Int64(text) { return int }
        default: break
        }
        throw mismatch(column, "an integer")
    }

    func real(_ column: Int) throws -> Double {
        switch cell(column).storage {
        case .int64(let int): return Double(int)
        case .double(let double): return double
        default: throw mismatch(column, "a number")
        }
    }

    func text(_ column: Int) throws -> String {
        switch cell(column).storage {
        case .string(let text): return text
        case .int64(let int): return String(int)
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        default: throw mismatch(column, "text")
        }
    }

    func bool(_ column: Int) throws -> Bool {
        switch cell(column).storage {
        case .int64(let int): return int != 0
        case .double(let double): return double != 0
        default: throw mismatch(column, "a boolean")
        }
    }

    func date(_ column: Int) throws -> Date {
        guard let date = Date.fromDatabaseValue(cell(column)) else { throw mismatch(column, "a date") }
        return date
    }

    func bytes(_ column: Int) throws -> [UInt8] {
        switch cell(column).storage {
        case .blob(let data): return Array(data)
        case .string(let text): return Array(text.utf8)
        default: throw mismatch(column, "bytes")
        }
    }
}
