import ConfigFile
import Testing

@Suite struct StructureErrorTests {
    static let cases: [GoldenError] = [
        .init("a = 1\na = 2", "test.toml:2: a: duplicate key (first defined at line 1)"),
        .init("[t]\nx = 1\n\nx = 'again'", "test.toml:4: t.x: duplicate key (first defined at line 2)"),
        .init("[providers.\"self hosted\"]\nkind = 1\nkind = 2",
              #"test.toml:3: providers."self hosted".kind: duplicate key (first defined at line 2)"#),
        .init("x = { a = 1, a = 2 }", "test.toml:1: x.a: duplicate key (first defined at line 1)"),
        .init("a.b = 1\na.b = 2", "test.toml:2: a.b: duplicate key (first defined at line 1)"),
        .init("a.b = 1\na = 2", "test.toml:2: a: duplicate key (first defined at line 1)"),
        .init("name = 1\n\"name\" = 2", "test.toml:2: name: duplicate key (first defined at line 1)"),
        .init("[a]\nx = 1\n[a]", "test.toml:3: a: table is already defined at line 1"),
        .init("[a.b]\n[a]\n[a.b]", "test.toml:3: a.b: table is already defined at line 1"),
        .init("a.b = 1\n[a]", "test.toml:2: a: table is already defined at line 1"),
        .init("[fruit]\napple.color = 'red'\n[fruit.apple]", "test.toml:3: fruit.apple: table is already defined at line 2"),
        .init("[a.b.c]\nz = 9\n[a]\nb.c.t = 1",
              "test.toml:4: a.b: table is already defined at line 1 and cannot be extended with dotted keys"),
        .init("[product]\ntype = { name = \"Nail\" }\ntype.edible = false",
              "test.toml:3: product.type: key is already defined as a table at line 2 (inline tables cannot be extended)"),
        .init("[product]\ntype = { name = \"Nail\" }\n[product.type]",
              "test.toml:3: product.type: key is already defined as a table at line 2 (inline tables cannot be extended)"),
        .init("a = 1\n[a.b]", "test.toml:2: a: key is already defined as an integer at line 1"),
        .init("a = 'x'\n[a]", "test.toml:2: a: key is already defined as a string at line 1"),
        .init("a = [1]\n[[a]]", "test.toml:2: a: key is already defined as an array at line 1"),
        .init("[[a]]\n[a]", "test.toml:2: a: key is already defined as an array of tables at line 1"),
        .init("[a]\n[[a]]", "test.toml:2: a: key is already defined as a table at line 1"),
        .init("[[a]]\nb.c = 1\n[[a]]\n[a.b]\n[a.b]", "test.toml:5: a[1].b: table is already defined at line 4"),
        .init("[[a]]\n[a]\nx = 1\n", "test.toml:2: a: key is already defined as an array of tables at line 1"),
        .init("[a]\nb = 1\n[[a.b]]", "test.toml:3: a.b: key is already defined as an integer at line 2"),
        .init("[[a]]\nb = 1\n[[a]]\nb = 1\nb = 2", "test.toml:5: a[1].b: duplicate key (first defined at line 4)"),
    ]

    @Test(arguments: cases)
    func structureErrorIsReportedExactly(_ golden: GoldenError) {
        #expect(parseError(golden.input) == golden.expected)
    }

    @Test func structureErrorsCarryNoColumn() {
        #expect(throws: ConfigError(file: "c.toml", line: 2, key: "a", message: "duplicate key (first defined at line 1)")) {
            try TOMLParser.parse("a = 1\na = 2", file: "c.toml")
        }
    }
}
