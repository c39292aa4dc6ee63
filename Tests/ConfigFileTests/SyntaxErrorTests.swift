import ConfigFile
import Testing

@Suite struct SyntaxErrorTests {
    static let cases: [GoldenError] = [
        // Strings
        .init(#"a = "abc"#, "test.toml:1:5: a: unterminated string"),
        .init("a = \"abc\nb = 1", "test.toml:1:5: a: unterminated string"),
        .init("a = 'abc", "test.toml:1:5: a: unterminated string"),
        .init("x = 1\na = \"\"\"abc\n\ndef", "test.toml:2:5: a: unterminated multi-line string"),
        .init("a = '''abc", "test.toml:1:5: a: unterminated multi-line string"),
        .init(#"a = "a\qb""#, #"test.toml:1:7: a: invalid escape sequence '\q'"#),
        .init(#"a = "\x41""#, #"test.toml:1:6: a: invalid escape sequence '\x'"#),
        .init(#"a = "\u12""#, #"test.toml:1:6: a: invalid escape sequence: \u needs 4 hexadecimal digits"#),
        .init(#"a = "\U0001F60""#, #"test.toml:1:6: a: invalid escape sequence: \U needs 8 hexadecimal digits"#),
        .init(#"a = "\UD800ABCD""#, "test.toml:1:6: a: invalid escape sequence: U+D800ABCD is not a Unicode scalar value"),
        .init(#"a = "\uD800""#, "test.toml:1:6: a: invalid escape sequence: U+D800 is not a Unicode scalar value"),
        .init(#"a = "\U00110000""#, "test.toml:1:6: a: invalid escape sequence: U+110000 is not a Unicode scalar value"),
        .init("a = \"x\u{07}y\"", "test.toml:1:7: a: control character U+0007 must be escaped in a string"),
        .init("a = 'x\u{7F}'", "test.toml:1:7: a: control character U+007F is not allowed in a literal string"),
        .init("a = \"\"\"\nok\u{0}\"\"\"", "test.toml:2:3: a: control character U+0000 must be escaped in a string"),
        .init("a = 1 # note \u{01}", "test.toml:1:14: control character U+0001 is not allowed in a comment"),
        .init("a = 1\r", "test.toml:1:6: carriage return must be followed by a line feed"),
        .init("\"\"\"k\"\"\" = 1", "test.toml:1:1: a multi-line string cannot be used as a key"),
        // Values
        .init("kind = oidc", #"test.toml:1:8: kind: invalid value 'oidc' (strings must be quoted: "oidc")"#),
        .init("on = True", #"test.toml:1:6: on: invalid value 'True' (strings must be quoted: "True")"#),
        .init("n = 007", "test.toml:1:5: n: invalid value '007': leading zeros are not allowed"),
        .init("n = 01.5", "test.toml:1:5: n: invalid value '01.5': leading zeros are not allowed"),
        .init("n = 1__000", "test.toml:1:5: n: invalid value '1__000'"),
        .init("n = 1.", "test.toml:1:5: n: invalid value '1.'"),
        .init("n = .5", "test.toml:1:5: n: invalid value '.5'"),
        .init("n = 0xG1", "test.toml:1:5: n: invalid value '0xG1'"),
        .init("n = -0xFF", "test.toml:1:5: n: invalid value '-0xFF': a sign is not allowed with 0x, 0o or 0b"),
        .init("n = 9223372036854775808", "test.toml:1:5: n: integer '9223372036854775808' is out of range for 64 bits"),
        .init("n = 0xFFFFFFFFFFFFFFFFF", "test.toml:1:5: n: integer '0xFFFFFFFFFFFFFFFFF' is out of range for 64 bits"),
        .init("n = 1e400", "test.toml:1:5: n: float '1e400' is out of range"),
        .init("[server]\nstarted = 1979-05-27T07:32:00Z", "test.toml:2:11: server.started: dates and times are not supported"),
        .init("when = 07:32:00", "test.toml:1:8: when: dates and times are not supported"),
        .init("day = 1979-05-27", "test.toml:1:7: day: dates and times are not supported"),
        // Structure of lines
        .init("a =", "test.toml:1:4: a: expected a value, found end of file"),
        .init("a = \nb = 1", "test.toml:1:5: a: expected a value, found end of line"),
        .init("a = 1 2", "test.toml:1:7: expected end of line after value, found '2'"),
        .init(#"a = "x" "y""#, #"test.toml:1:9: expected end of line after value, found '"'"#),
        .init("= 1", "test.toml:1:1: expected a key, found '='"),
        .init("a.= 1", "test.toml:1:3: expected a key, found '='"),
        .init("kind \"oidc\"", #"test.toml:1:6: expected '=' after key, found '"'"#),
        .init("a = 1\nb", "test.toml:2:2: expected '=' after key, found end of file"),
        .init("[a", "test.toml:1:3: expected ']' to close the table header, found end of file"),
        .init("[[a]", "test.toml:1:5: expected ']]' to close the array-of-tables header, found end of file"),
        .init("[a] x = 1", "test.toml:1:5: expected end of line after table header, found 'x'"),
        .init("[]", "test.toml:1:2: expected a key, found ']'"),
        // Arrays and inline tables
        .init("x = [1, 2", "test.toml:1:5: x: unterminated array"),
        .init("x = [1 2]", "test.toml:1:8: x: expected ',' or ']' after array element, found '2'"),
        .init("x = [1,,2]", "test.toml:1:8: x[1]: expected a value, found ','"),
        .init("x = [\n  1,\n  oops,\n]", "test.toml:3:3: x[1]: invalid value 'oops' (strings must be quoted: \"oops\")"),
        .init("x = { a = 1, }", "test.toml:1:14: x: trailing comma is not allowed in an inline table"),
        .init("x = { a = 1", "test.toml:1:5: x: unterminated inline table"),
        .init("x = { a = 1\n}", "test.toml:1:12: x: inline table must be on one line (missing '}'?)"),
        .init("x = { a = 1 b = 2 }", "test.toml:1:13: x: expected ',' or '}' in inline table, found 'b'"),
        .init("roles = [{ fg = oops }]", #"test.toml:1:17: roles[0].fg: invalid value 'oops' (strings must be quoted: "oops")"#),
        .init("a = \"\"\"\n\n\"\"\"\nb = [\n1,\n]\nc = nope", #"test.toml:7:5: c: invalid value 'nope' (strings must be quoted: "nope")"#),
        .init("deep = " + String(repeating: "[", count: 150), "test.toml:1:108: deep[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: values are nested too deeply (more than 100 levels)"),
    ]

    @Test(arguments: cases)
    func syntaxErrorIsReportedExactly(_ golden: GoldenError) {
        #expect(parseError(golden.input) == golden.expected)
    }

    @Test func errorCarriesStructuredFields() {
        let expected = ConfigError(file: "config.toml", line: 3, column: 17, key: "providers.work.client_id",
                                   message: "unterminated string")
        #expect(throws: expected) {
            try TOMLParser.parse("[providers.work]\nkind = \"oidc\"\nclient_id     = \"abc", file: "config.toml")
        }
        #expect(expected.description == "config.toml:3:17: providers.work.client_id: unterminated string")
        #expect(ConfigError(file: "f.toml", message: "m").description == "f.toml: m")
        #expect(ConfigError(file: "f.toml", line: 2, key: "k", message: "m").description == "f.toml:2: k: m")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(parseError("name = \"Zoë\" x") == "test.toml:1:14: expected end of line after value, found 'x'")
    }
}
