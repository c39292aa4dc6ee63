import Foundation
import Testing
@testable import QRCode

/// One symbol produced by qrencode (see Fixtures/make-fixtures.sh).
struct Fixture: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let version: Int
    let level: QRErrorCorrection
    let mask: Int
    let minimumVersion: Int
    /// Row-major modules, `true` = dark.
    let modules: [[Bool]]

    var testDescription: String {
        let label: String = switch level {
        case .low: "L"
        case .medium: "M"
        case .quartile: "Q"
        case .high: "H"
        }
        return "\(name) v\(version)-\(label) mask \(mask), \(bytes.count) bytes"
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    /// All fixtures, or an empty list when loading fails (``loadAll()`` reports why).
    static let all: [Fixture] = (try? loadAll()) ?? []

    static func loadAll() throws -> [Fixture] {
        guard let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw ParseError(description: "Fixtures directory missing from Bundle.module")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".txt") }
            .sorted()
        return try names.map { name in
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            return try parse(name: name, text: text)
        }
    }

    static func parse(name: String, text: String) throws -> Fixture {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !lines.isEmpty else { throw ParseError(description: "\(name): empty") }
        let header = lines.removeFirst()
        var fields: [String: String] = [:]
        for pair in header.split(separator: " ") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { throw ParseError(description: "\(name): bad header \(header)") }
            fields[String(parts[0])] = String(parts[1])
        }
        guard let hex = fields["hex"], let version = fields["version"].flatMap(Int.init),
              let mask = fields["mask"].flatMap(Int.init),
              let minimumVersion = fields["minversion"].flatMap(Int.init),
              let level = fields["level"].flatMap(parseLevel) else {
            throw ParseError(description: "\(name): incomplete header \(header)")
        }
        let modules = try lines.map { line in
            try line.map { character -> Bool in
                switch character {
                case "#": return true
                case ".": return false
                default: throw ParseError(description: "\(name): bad module \(character)")
                }
            }
        }
        let size = 4 * version + 17
        guard modules.count == size, modules.allSatisfy({ $0.count == size }) else {
            throw ParseError(description: "\(name): matrix is not \(size)×\(size)")
        }
        return Fixture(
            name: name, bytes: try parseHex(hex), version: version, level: level,
            mask: mask, minimumVersion: minimumVersion, modules: modules
        )
    }

    private static func parseLevel(_ text: String) -> QRErrorCorrection? {
        ["L": .low, "M": .medium, "Q": .quartile, "H": .high][text]
    }

    private static func parseHex(_ hex: String) throws -> [UInt8] {
        let digits = Array(hex)
        guard digits.count % 2 == 0 else { throw ParseError(description: "odd hex length") }
        return try stride(from: 0, to: digits.count, by: 2).map { i in
            guard let byte = UInt8(String(digits[i...i + 1]), radix: 16) else {
                throw ParseError(description: "bad hex \(digits[i])\(digits[i + 1])")
            }
            return byte
        }
    }

    /// Number of modules where `matrix` differs from the fixture, and the first one.
    func differences(from matrix: QRMatrix) -> (count: Int, first: (x: Int, y: Int)?) {
        guard matrix.size == modules.count else { return (modules.count * modules.count, nil) }
        var count = 0
        var first: (x: Int, y: Int)?
        for y in 0..<matrix.size {
            for x in 0..<matrix.size where matrix[x, y] != modules[y][x] {
                count += 1
                if first == nil { first = (x, y) }
            }
        }
        return (count, first)
    }
}
