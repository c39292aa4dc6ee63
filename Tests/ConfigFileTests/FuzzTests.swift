import ConfigFile
import Testing
import TestBasics

@Suite struct FuzzTests {
    /// Bytes that are interesting to TOML's grammar, plus some that are not.
    private static let alphabet: [UInt8] = Array("\"'[]{}=.,#\\\n\r\t _-+:0123456789abefinotuxUTZ".utf8)
        + [0x00, 0x01, 0x7F, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80]

    private static func mutate(_ bytes: [UInt8], using rng: inout SeededGenerator) -> [UInt8] {
        var result = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let position = result.isEmpty ? 0 : Int.random(in: 0..<result.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !result.isEmpty:
                result.remove(at: position)
            case 1:
                result.insert(alphabet.randomElement(using: &rng)!, at: position)
            case 2 where !result.isEmpty:
                result[position] = alphabet.randomElement(using: &rng)!
            case 3:
                let length = Int.random(in: 1...40, using: &rng)
                let start = Int.random(in: 0..<max(1, bytes.count - length), using: &rng)
                result.insert(contentsOf: bytes[start..<min(bytes.count, start + length)], at: position)
            case 4:
                result.removeSubrange(position..<min(result.count, position + Int.random(in: 1...20, using: &rng)))
            default:
                result = Array(result.prefix(position))
            }
        }
        return result
    }

    @Test func randomMutationsNeverCrashTheParser() {
        let sources = [RealisticFileTests.config, RealisticFileTests.theme,
                       "a = [1, [2, {x = 'y', z.w = \"\"\"q\\u00e9\"\"\"}]]\n[[t.u]]\nv = 0x_ff\n'k'.\"l\" = -1.5e3\n"]
        var rng = SeededGenerator(seed: 0x5EED)
        var parsed = 0
        var failed = 0
        for round in 0..<4000 {
            let source = Array(sources[round % sources.count].utf8)
            let text = String(decoding: Self.mutate(source, using: &rng), as: UTF8.self)
            let lineCount = text.utf8.filter { $0 == 0x0A }.count + 1
            do throws(ConfigError) {
                let doc = try TOMLParser.parse(text, file: "fuzz.toml")
                _ = doc.root.tables()
                parsed += 1
            } catch {
                failed += 1
                #expect(error.file == "fuzz.toml")
                #expect(error.line.map { (1...lineCount).contains($0) } ?? false, "\(error) for \(text.debugDescription)")
                #expect(!error.message.isEmpty)
            }
        }
        #expect(parsed > 100 && failed > 100, "mutations should produce both valid and invalid files")
    }
}

extension FuzzTests {
    @Test func randomTokenSoupNeverCrashesTheParser() {
        let tokens = ["[", "]", "[[", "]]", "{", "}", "=", ".", ",", "\n", "\r\n", " ", "#", "a", "\"b\"", "'c'",
                      "\"\"\"", "'''", "1", "-2.5e3", "0x1F", "true", "\\", "\\u00", "1979-05-27", "\u{0}", "é"]
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...30, using: &rng)
            let text = (0..<count).map { _ in tokens.randomElement(using: &rng)! }.joined()
            do throws(ConfigError) {
                _ = try TOMLParser.parse(text, file: "soup.toml")
            } catch {
                #expect(error.file == "soup.toml" && error.line != nil && !error.message.isEmpty)
            }
        }
    }

    /// What libFuzzer's TOML harness (Fuzz/harnesses/toml.swift) first
    /// stopped at: `i=-nan` is a float that equals nothing, itself included,
    /// so a document holding it is not equal to itself. The reader is right;
    /// the harness no longer compares a document with itself.
    @Test func aNaNFloatParsesAndEqualsNothing() throws {
        let document = try parse("i=-nan\n\n\n\n\n\n")
        guard case .float(let value)? = document.root["i"] else {
            Issue.record("expected a float, got \(String(describing: document.root["i"]))")
            return
        }
        #expect(value.isNaN)
        #expect(document != document)
    }
}
