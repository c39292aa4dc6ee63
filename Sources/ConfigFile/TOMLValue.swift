/// A TOML value. Dates and times are not supported by the parser.
public indirect enum TOMLValue: Sendable, Equatable {
    /// A string of any of the four TOML string forms, escapes resolved.
    case string(String)
    /// A 64-bit signed integer (decimal, hexadecimal, octal or binary in the source).
    case integer(Int64)
    /// A floating-point number, including `inf` and `nan`.
    case float(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// An array; TOML 1.0 allows mixed element types.
    case array([TOMLValue])
    /// A table: a `[header]` table, an inline table or an element of an array of tables.
    case table(TOMLTable)

    /// The kind of value with its article, as used in error messages: "a string", "an integer", ...
    public var kindDescription: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .float: return "a float"
        case .bool: return "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer.
    public var integerValue: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number, if this is a float or an integer.
    public var doubleValue: Double? {
        switch self {
        case .float(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }

    /// The boolean, if this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [TOMLValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The table, if this is a table.
    public var tableValue: TOMLTable? {
        if case .table(let value) = self { return value }
        return nil
    }
}
