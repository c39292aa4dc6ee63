import CLibPQ

#if canImport(Glibc)
    import Glibc
#endif

/// A `NOTIFY` a listening connection received.
public struct PGNotification: Sendable, Hashable {
    public let channel: String
    public let payload: String
    /// The server process of the connection that sent it.
    public let process: Int32
}

/// One parameter of a statement: its type (an OID; 0 lets the server
/// infer it) and its value as text, or nil for NULL.
public struct PGParameter: Sendable, Hashable {
    public let type: UInt32
    public let text: String?

    public init(type: UInt32, text: String?) {
        self.type = type
        self.text = text
    }
}

/// The OIDs of the types Switchboard binds and reads.
public enum PGType {
    public static let bool: UInt32 = 16
    public static let bytea: UInt32 = 17
    public static let int8: UInt32 = 20
    public static let int2: UInt32 = 21
    public static let int4: UInt32 = 23
    public static let text: UInt32 = 25
    public static let oid: UInt32 = 26
    public static let float4: UInt32 = 700
    public static let float8: UInt32 = 701
    public static let varchar: UInt32 = 1043
    public static let timestamp: UInt32 = 1114
    public static let timestamptz: UInt32 = 1184
    public static let numeric: UInt32 = 1700
}

/// The rows of a statement, read as text (the server's output format).
public final class PGResult: @unchecked Sendable {
    private let result: OpaquePointer
    public let rowCount: Int
    public let columnCount: Int

    init(_ result: OpaquePointer) {
        self.result = result
        rowCount = Int(PQntuples(result))
        columnCount = Int(PQnfields(result))
    }

    deinit { PQclear(result) }

    /// The type (OID) of a column.
    public func type(ofColumn column: Int) -> UInt32 { PQftype(result, Int32(column)) }

    /// Whether a cell is NULL.
    public func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// A cell's text; nil when NULL. Bytes that are not UTF-8 become U+FFFD.
    public func text(_ row: Int, _ column: Int) -> String? {
        guard !isNull(row, column), let value = PQgetvalue(result, Int32(row), Int32(column)) else { return nil }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return value.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// How many rows the statement changed (`UPDATE`, `DELETE`, `INSERT`).
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }
}

/// Runs `body` with `strings` as C strings (nil for nil), valid for its length.
func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
