import ConfigFile
import Testing

@Suite struct ScalarParsingTests {
    @Test func basicStringEscapes() throws {
        let doc = try parse(#"s = "q\" b\\ n\n t\t r\r b\b f\f \u00e9 \U0001F600""#)
        #expect(doc.root["s"] == .string("q\" b\\ n\n t\t r\r b\u{08} f\u{0C} é 😀"))
    }

    @Test func literalStringsKeepBackslashes() throws {
        let doc = try parse(#"p = 'C:\Users\nodejs\templates'"# + "\nq = '<\\i\\c*\\s*>'\nempty = ''")
        #expect(doc.root["p"] == .string(#"C:\Users\nodejs\templates"#))
        #expect(doc.root["q"] == .string(#"<\i\c*\s*>"#))
        #expect(doc.root["empty"] == .string(""))
    }

    @Test func unicodeContentIsKept() throws {
        let doc = try parse("name = \"Zoë 日本 🚀\"\n'ключ' = 1")
        #expect(doc.root["name"] == .string("Zoë 日本 🚀"))
        #expect(doc.root["ключ"] == .integer(1))
    }

    @Test func multiLineBasicStrings() throws {
        let text = "a = \"\"\"\nRoses are red\nViolets are blue\"\"\"\n"
            + "b = \"\"\"\nThe quick \\\n\n    brown \\   \n   fox.\"\"\"\n"
            + "c = \"\"\"Here are two quotation marks: \"\". Simple.\"\"\"\n"
            + "d = \"\"\"\"This,\" she said, \"is just a pointless statement.\"\"\"\"\n"
            + "e = \"\"\"tab\\there \\u0041\"\"\"\n"
        let doc = try parse(text)
        #expect(doc.root["a"] == .string("Roses are red\nViolets are blue"))
        #expect(doc.root["b"] == .string("The quick brown fox."))
        #expect(doc.root["c"] == .string("Here are two quotation marks: \"\". Simple."))
        #expect(doc.root["d"] == .string("\"This,\" she said, \"is just a pointless statement.\""))
        #expect(doc.root["e"] == .string("tab\there A"))
    }

    @Test func multiLineLiteralStrings() throws {
        let text = "regex = '''I [dw]on't need \\d{2} apples'''\n"
            + "lines = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n'''\n"
            + "quoted = ''''That,' she said, 'is still pointless.''''\n"
        let doc = try parse(text)
        #expect(doc.root["regex"] == .string("I [dw]on't need \\d{2} apples"))
        #expect(doc.root["lines"] == .string("The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n"))
        #expect(doc.root["quoted"] == .string("'That,' she said, 'is still pointless.'"))
    }

    @Test func crlfLineEndingsAreAccepted() throws {
        let doc = try parse("a = 1\r\nb = \"\"\"\r\nx\r\ny\"\"\"\r\n# c\r\nc = 2\r\n")
        #expect(doc.root["b"] == .string("x\ny"))
        #expect(doc.root.entry(for: "c")?.line == 6)
    }

    @Test func integers() throws {
        let text = """
            a = +99
            b = 42
            c = 0
            d = -17
            e = 1_000
            f = 5_349_221
            g = 0xDEADBEEF
            h = 0xdead_beef
            i = 0o755
            j = 0b1101_0110
            k = -9223372036854775808
            l = 9223372036854775807
            m = -0
            """
        let root = try parse(text).root
        let expected: [String: Int64] = [
            "a": 99, "b": 42, "c": 0, "d": -17, "e": 1000, "f": 5_349_221, "g": 0xDEADBEEF,
            "h": 0xDEADBEEF, "i": 0o755, "j": 0b1101_0110, "k": .min, "l": .max, "m": 0,
        ]
        for (key, value) in expected { #expect(root[key] == .integer(value), "\(key)") }
    }

    @Test func floats() throws {
        let text = """
            a = +1.0
            b = 3.1415
            c = -0.01
            d = 5e+22
            e = 1e06
            f = -2E-2
            g = 6.626e-34
            h = 224_617.445_991_228
            i = 0.5
            j = inf
            k = -inf
            l = +inf
            """
        let root = try parse(text + "\nm = nan\nn = -nan").root
        let expected: [String: Double] = [
            "a": 1.0, "b": 3.1415, "c": -0.01, "d": 5e22, "e": 1e6, "f": -0.02, "g": 6.626e-34,
            "h": 224_617.445_991_228, "i": 0.5, "j": .infinity, "k": -.infinity, "l": .infinity,
        ]
        for (key, value) in expected { #expect(root[key] == .float(value), "\(key)") }
        #expect(root["m"]?.doubleValue?.isNaN == true)
        #expect(root["n"]?.doubleValue?.isNaN == true)
    }

    @Test func booleansAndComments() throws {
        let doc = try parse("# heading\n\n  yes = true # trailing\nno = false\n\t# indented comment\n")
        #expect(doc.root["yes"] == .bool(true))
        #expect(doc.root["no"] == .bool(false))
        #expect(doc.root.keys == ["yes", "no"])
    }

    @Test func byteOrderMarkAndEmptyDocuments() throws {
        #expect(try parse("\u{FEFF}a = 1").root["a"] == .integer(1))
        #expect(try parse("").root.isEmpty)
        #expect(try parse("\n# only a comment\n\n").root.isEmpty)
    }
}
