import Foundation
import Postgres

/// A libpq connection inside a transaction, as the store's rules use it:
/// every value a parameter with its type, rows read as the server's text.
struct PostgresConnection: SQLConnection {
    let connection: PGConnection
    var dialect: SQLDialect { .postgres }
    var isShared: Bool { true }

    @discardableResult
    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws -> Int {
        // Without parameters, several statements may be given at once.
        if arguments.isEmpty { return try connection.execute(sql).affectedRows }
        return try connection.query(sql, arguments.map(Self.parameter)).affectedRows
    }

    func each(_ sql: String, _ arguments: [any SQLBindable], _ body: (any SQLRow) throws -> Void) throws {
        let result = try connection.query(sql, arguments.map(Self.parameter))
        for row in 0..<result.rowCount { try body(PostgresRow(result: result, row: row)) }
    }

    /// A value as a typed text parameter (NULL's type left to the server).
    static func parameter(_ value: any SQLBindable) -> PGParameter {
        switch value.sqlValue {
        case .null: PGParameter(type: 0, text: nil)
        case .integer(let int): PGParameter(type: PGType.int8, text: String(int))
        case .real(let double): PGParameter(type: PGType.float8, text: "\(double)")
        case .text(let text): PGParameter(type: PGType.text, text: text)
        case .blob(let bytes): PGParameter(type: PGType.bytea, text: PGText.bytea(bytes))
        case .bool(let bool): PGParameter(type: PGType.bool, text: bool ? "t" : "f")
        case .date(let date): PGParameter(type: PGType.timestamptz, text: PGText.timestamp(date))
        }
    }
}

/// One row of a libpq result, each cell read by its column's type.
struct PostgresRow: SQLRow {
    let result: PGResult
    let row: Int

    private func cell(_ column: Int) throws -> (type: UInt32, text: String) {
        guard column < result.columnCount, let text = result.text(row, column) else {
            throw SQLDecodingError(description: "column \(column) is NULL or missing")
        }
        return (result.type(ofColumn: column), text)
    }

    private func mismatch(_ column: Int, _ wanted: String) -> SQLDecodingError {
        SQLDecodingError(description: "column \(column) (type \(result.type(ofColumn: column))) does not hold \(wanted)")
    }

    var columnCount: Int { result.columnCount }
    func rendered(_ column: Int) -> String { result.text(row, column) ?? "NULL" }
    func isNull(_ column: Int) -> Bool { column >= result.columnCount || result.isNull(row, column) }

    func integer(_ column: Int) throws -> Int64 {
        let (type, text) = try cell(column)
        switch type {
        case PGType.int8, PGType.int4, PGType.int2, PGType.oid, PGType.numeric, PGType.text, PGType.varchar:
            if let int = Int64(text) { return int }
        case PGType.bool: return text == "t" ? 1 : 0
        default: break
        }
        throw mismatch(column, "an integer")
    }

    func real(_ column: Int) throws -> Double {
        let (_, text) = try cell(column)
        guard let double = Double(text) else { throw mismatch(column, "a number") }
        return double
    }

    func text(_ column: Int) throws -> String {
        let (type, text) = try cell(column)
        if type == PGType.bytea { return String(decoding: try bytes(column), as: UTF8.self) }
        return text
    }

    func bool(_ column: Int) throws -> Bool {
        let (type, text) = try cell(column)
        switch type {
        case PGType.bool: return text == "t"
        case PGType.int8, PGType.int4, PGType.int2: if let int = Int64(text) { return int != 0 }
        default: break
        }
        throw mismatch(column, "a boolean")
    }

    func date(_ column: Int) throws -> Date {
        let (_, text) = try cell(column)
        guard let date = PGText.date(text) else { throw mismatch(column, "a timestamp") }
        return date
    }

    func bytes(_ column: Int) throws -> [UInt8] {
        let (type, text) = try cell(column)
        guard type == PGType.bytea else { return Array(text.utf8) }
        guard let bytes = PGText.bytes(text) else { throw mismatch(column, "bytes") }
        return bytes
    }
}

/// PostgreSQL's text forms of the values Switchboard stores.
enum PGText {
    /// `\x` and two hex digits a byte (`bytea_output = hex`).
    static func bytea(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]("\\x".utf8)
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func bytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2 - 1)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// `YYYY-MM-DD HH:MM:SS.ffffff+00`, to the microsecond, in UTC.
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = Int64(interval.rounded(.down))
        var micros = Int64(((interval - Double(seconds)) * 1_000_000).rounded())
        if micros >= 1_000_000 {
            seconds += 1
            micros -= 1_000_000
        }
        let (year, month, day) = civil(fromDays: floorDivide(seconds, 86_400))
        let time = seconds - floorDivide(seconds, 86_400) * 86_400
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let fraction = String(micros + 1_000_000).dropFirst()
        let yearText = year < 1000 ? String(String(year + 10000).dropFirst()) : String(year)
        return "\(yearText)-\(two(month))-\(two(day)) \(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)).\(fraction)+00"
    }

    /// A `timestamptz` (or `timestamp`, read as UTC) in ISO style: `2024-05-01 12:34:56.789+00`.
    static func date(_ text: String) -> Date? {
        let utf8 = Array(text.utf8)
        var index = 0
        func number(_ digits: Int) -> Int64? {
            guard index + digits <= utf8.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<digits {
                let c = utf8[index]
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int64(c - 48)
                index += 1
            }
            return value
        }
        func skip(_ c: Character) -> Bool {
            guard index < utf8.count, utf8[index] == c.asciiValue! else { return false }
            index += 1
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2), skip(" "),
            let hour = number(2), skip(":"), let minute = number(2), skip(":"), let second = number(2)
        else { return nil }
        var fraction = 0.0
        if skip(".") {
            var scale = 0.1
            while index < utf8.count, utf8[index] >= 48 && utf8[index] <= 57 {
                fraction += Double(utf8[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offset: Int64 = 0
        if index < utf8.count {
            let sign: Int64 = utf8[index] == UInt8(ascii: "-") ? -1 : 1
            guard utf8[index] == UInt8(ascii: "+") || utf8[index] == UInt8(ascii: "-") else { return nil }
            index += 1
            guard let hours = number(2) else { return nil }
            var minutes: Int64 = 0
            if skip(":") { minutes = number(2) ?? 0 }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        let days = days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        // Rounded to the microsecond, as it was stored.
        return Date(timeIntervalSince1970: Double(seconds) + (fraction * 1_000_000).rounded() / 1_000_000)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
