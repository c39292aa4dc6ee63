import Foundation

// The store's rules talk to either engine through these: statements written
// once, with numbered parameters (`$1`, `$2`…, PostgreSQL's spelling; the
// SQLite engine reads them as `?1`, `?2`…), values bound as `SQLValue`s and
// rows read by position.

/// A value bound to a statement or read from a row.
enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case bool(Bool)
    case date(Date)
}

/// What a statement can take as a parameter.
protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension Int64: SQLBindable { var sqlValue: SQLValue { .integer(self) } }
extension Int: SQLBindable { var sqlValue: SQLValue { .integer(Int64(self)) } }
extension String: SQLBindable { var sqlValue: SQLValue { .text(self) } }
extension Bool: SQLBindable { var sqlValue: SQLValue { .bool(self) } }
extension Date: SQLBindable { var sqlValue: SQLValue { .date(self) } }
extension Data: SQLBindable { var sqlValue: SQLValue { .blob(Array(self)) } }
extension Double: SQLBindable { var sqlValue: SQLValue { .real(self) } }
extension Optional: SQLBindable where Wrapped: SQLBindable {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

/// A row read back that does not hold what the store wrote there.
struct SQLDecodingError: Error, CustomStringConvertible {
    let description: String
}

/// One row of a result, read by column position. Only valid inside the
/// call that hands it out.
protocol SQLRow {
    /// How many columns the row has.
    var columnCount: Int { get }
    /// A cell as text, whatever it holds (`NULL` for none): for dumps and messages.
    func rendered(_ column: Int) -> String
    func isNull(_ column: Int) -> Bool
    func integer(_ column: Int) throws -> Int64
    func real(_ column: Int) throws -> Double
    func text(_ column: Int) throws -> String
    func bool(_ column: Int) throws -> Bool
    func date(_ column: Int) throws -> Date
    func bytes(_ column: Int) throws -> [UInt8]
}

/// A type a column reads as.
protocol SQLDecodable {
    static func decode(_ row: any SQLRow, _ column: Int) throws -> Self
}

extension Int64: SQLDecodable { static func decode(_ row: any SQLRow, _ column: Int) throws -> Int64 { try row.integer(column) } }
extension Int: SQLDecodable {
    static func decode(_ row: any SQLRow, _ column: Int) throws -> Int {
        let value = try row.integer(column)
        guard let int = Int(exactly: value) else { throw SQLDecodingError(description: "column \(column): \(value) is out of range") }
        return int
    }
}
extension Double: SQLDecodable { static func decode(_ row: any SQLRow, _ column: Int) throws -> Double { try row.real(column) } }
extension String: SQLDecodable { static func decode(_ row: any SQLRow, _ column: Int) throws -> String { try row.text(column) } }
extension Bool: SQLDecodable { static func decode(_ row: any SQLRow, _ column: Int) throws -> Bool { try row.bool(column) } }
extension Date: SQLDecodable { static func decode(_ row: any SQLRow, _ column: Int) throws -> Date { try row.date(column) } }
extension Data: SQLDecodable { static func decode(_ row: any SQLRow, _ column: Int) throws -> Data { Data(try row.bytes(column)) } }
extension Optional: SQLDecodable where Wrapped: SQLDecodable {
    static func decode(_ row: any SQLRow, _ column: Int) throws -> Wrapped? {
        row.isNull(column) ? nil : try Wrapped.decode(row, column)
    }
}

extension SQLRow {
    /// The text in `column`, nil for NULL.
    func optionalText(_ column: Int) throws -> String? { isNull(column) ? nil : try text(column) }

    /// The value in `column`, as the type asked for; throws when it is not one.
    subscript<T: SQLDecodable>(_ column: Int) -> T {
        get throws {
            if !(T.self is any ExpressibleByNilLiteral.Type), isNull(column) {
                throw SQLDecodingError(description: "column \(column) is NULL where a \(T.self) was expected")
            }
            return try T.decode(self, column)
        }
    }
}

/// How the two engines' SQL differs where one text cannot serve both.
enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// After rows were inserted with their own ids: the statement that makes
    /// the next id the engine gives follow them (nil where it does so itself,
    /// as SQLite's `AUTOINCREMENT` does).
    func continueIDs(of table: String, column: String) -> String? {
        switch self {
        case .sqlite: nil
        case .postgres:
            "SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), coalesce(max(\(column)), 0) + 1, false) FROM \(table)"
        }
    }

    /// `column` equals `parameter`, ignoring the case of ASCII letters, in a
    /// form the engine's index on it serves.
    func equalsIgnoringCase(_ column: String, _ parameter: String) -> String {
        switch self {
        case .sqlite: "\(column) = \(parameter) COLLATE NOCASE"
        case .postgres: "lower(\(column)) = lower(\(parameter))"
        }
    }
}

/// A connection inside one transaction, as the store's rules use it.
protocol SQLConnection {
    var dialect: SQLDialect { get }
    /// Whether the store is shared by a fleet's stations (PostgreSQL): a
    /// session named from elsewhere then reads a station's terminal session
    /// and may sign it out (an operator's), though never switch it to someone.
    var isShared: Bool { get }
    /// Runs a statement; returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int
    /// Runs a query and hands each row to `body`, in order.
    func each(_ sql: String, _ arguments: [any SQLBindable], _ body: (any SQLRow) throws -> Void) throws
    /// Told of each event the transaction appends (`Rows.insertEvent`).
    func appended(_ event: ChangePayload.Event)
}

extension SQLConnection {
    func appended(_ event: ChangePayload.Event) {}
}

/// A write's connection that notes the events it appends, so the store
/// knows its own before they commit.
final class EventNotingConnection: SQLConnection {
    let base: any SQLConnection
    private(set) var events: [ChangePayload.Event] = []
    /// What PINs given to this write were worked out to before it began.
    let derivations: PINDerivations

    init(_ base: any SQLConnection, derivations: PINDerivations = PINDerivations()) {
        self.base = base
        self.derivations = derivations
    }

    var dialect: SQLDialect { base.dialect }
    var isShared: Bool { base.isShared }
    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int { try base.execute(sql, arguments) }
    func each(_ sql: String, _ arguments: [any SQLBindable], _ body: (any SQLRow) throws -> Void) throws { try base.each(sql, arguments, body) }
    func appended(_ event: ChangePayload.Event) { events.append(event) }
}

extension SQLConnection {
    @discardableResult
    func execute(_ sql: String) throws -> Int { try execute(sql, []) }

    /// Each row, made into a value by `transform`.
    func map<T>(_ sql: String, _ arguments: [any SQLBindable] = [], _ transform: (any SQLRow) throws -> T) throws -> [T] {
        var values: [T] = []
        try each(sql, arguments) { values.append(try transform($0)) }
        return values
    }

    /// The first row, made into a value by `transform`; nil when there is none.
    func first<T>(_ sql: String, _ arguments: [any SQLBindable] = [], _ transform: (any SQLRow) throws -> T) throws -> T? {
        var value: T?
        try each(sql, arguments) { row in if value == nil { value = try transform(row) } }
        return value
    }

    /// The first column of every row.
    func column<T: SQLDecodable>(_ sql: String, _ arguments: [any SQLBindable] = [], as type: T.Type = T.self) throws -> [T] {
        try map(sql, arguments) { try $0[0] }
    }

    /// The first column of the first row; nil when there is no row or it is NULL.
    func value<T: SQLDecodable>(_ sql: String, _ arguments: [any SQLBindable] = [], as type: T.Type = T.self) throws -> T? {
        try first(sql, arguments) { row -> T? in row.isNull(0) ? nil : try T.decode(row, 0) } ?? nil
    }

    /// Whether the query gives any row.
    func exists(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> Bool {
        try first(sql, arguments) { _ in true } ?? false
    }
}

/// `$first, $first+1, …` for `count` values, for an `IN (…)` list.
func placeholders(_ count: Int, from first: Int = 1) -> String {
    (first..<(first + count)).map { "$\($0)" }.joined(separator: ", ")
}
