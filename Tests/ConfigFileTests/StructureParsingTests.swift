import ConfigFile
import Testing

@Suite struct StructureParsingTests {
    @Test func arrays() throws {
        let text = """
            empty = []
            ints = [1, 2, 3]
            nested = [[1, 2], ["a", 'b'], []]
            mixed = [0.1, "x", true, { k = 1 }]
            multi = [
              "one",   # first
              # a comment line
              "two",
            ]
            """
        let root = try parse(text).root
        #expect(root["empty"] == .array([]))
        #expect(root["ints"] == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(root["nested"] == .array([.array([.integer(1), .integer(2)]), .array([.string("a"), .string("b")]), .array([])]))
        #expect(root["mixed"] == .array([.float(0.1), .string("x"), .bool(true), .table(["k": .integer(1)])]))
        #expect(root["multi"] == .array([.string("one"), .string("two")]))
        #expect(root.entry(for: "multi")?.line == 5)
    }

    @Test func inlineTables() throws {
        let text = """
            name = { first = "Tom", last = "Preston-Werner" }
            point = {x=1,y=2}
            animal = { type.name = "pug" }
            empty = {}
            nested = { inner = { deep = [1, { z = true }] } }
            """
        let root = try parse(text).root
        #expect(root["name"] == .table(["first": .string("Tom"), "last": .string("Preston-Werner")]))
        #expect(root["point"] == .table(["x": .integer(1), "y": .integer(2)]))
        #expect(root["animal"] == .table(["type": .table(["name": .string("pug")])]))
        #expect(root["empty"] == .table([:]))
        let deep: TOMLValue = .table(["inner": .table(["deep": .array([.integer(1), .table(["z": .bool(true)])])])])
        #expect(root["nested"] == deep)
        let point = try root.table("point")
        #expect(point.path == "point" && point.line == 2 && point.file == "test.toml")
        let z = try root.table("nested").table("inner").array("deep")[1].tableValue
        #expect(z?.path == "nested.inner.deep[1]")
    }

    @Test func keysOfAllKinds() throws {
        let text = """
            bare_key-1 = 1
            "quoted key" = 2
            'literal "key"' = 3
            "" = 4
            physical.color = "orange"
            physical.shape = "round"
            site."google.com" = true
            3.14159 = "pi"
            a . b . c = 5
            """
        let root = try parse(text).root
        #expect(root.keys == ["bare_key-1", "quoted key", "literal \"key\"", "", "physical", "site", "3", "a"])
        #expect(root["physical"] == .table(["color": .string("orange"), "shape": .string("round")]))
        #expect(root["site"] == .table(["google.com": .bool(true)]))
        #expect(root["3"] == .table(["14159": .string("pi")]))
        #expect(root["a"] == .table(["b": .table(["c": .integer(5)])]))
        #expect(try root.table("physical").line == 5)
    }

    @Test func tablesAndHeaders() throws {
        let text = """
            top = 0

            [a]
            x = 1

            [a.b]
            y = 2

            [ dog . "tater.man" ]
            type = "pug"

            [c."quoted key"]
            z = 3

            [x.y.z.w]
            [x]
            defined = true
            """
        let root = try parse(text).root
        #expect(root.keys == ["top", "a", "dog", "c", "x"])
        let a = try root.table("a")
        #expect(a.path == "a" && a.line == 3)
        #expect(try a.table("b").path == "a.b")
        #expect(try a.table("b").line == 6)
        #expect(try root.table("dog").table("tater.man").path == #"dog."tater.man""#)
        #expect(try root.table("c").table("quoted key").integer("z") == 3)
        let x = try root.table("x")
        #expect(x.line == 16, "an implicit table takes the line of its own header once defined")
        #expect(try x.table("y").line == 15)
        #expect(try x.bool("defined"))
    }

    @Test func dottedKeysAndSubTables() throws {
        let text = """
            [fruit]
            apple.color = "red"
            apple.taste.sweet = true

            [fruit.apple.texture]
            smooth = true
            """
        let apple = try parse(text).root.table("fruit").table("apple")
        #expect(apple.keys == ["color", "taste", "texture"])
        #expect(try apple.table("texture").bool("smooth"))
    }

    @Test func arraysOfTables() throws {
        let text = """
            [[products]]
            name = "Hammer"
            sku = 738594937

            [[products]]  # empty table within the array

            [[products]]
            name = "Nail"
            color = "gray"

            [[fruits]]
            name = "apple"
            [fruits.physical]
            color = "red"
            [[fruits.varieties]]
            name = "red delicious"
            [[fruits.varieties]]
            name = "granny smith"

            [[fruits]]
            name = "banana"
            [[fruits.varieties]]
            name = "plantain"
            """
        let root = try parse(text).root
        let products = try root.tableArray("products")
        #expect(products.count == 3)
        #expect(products[1].isEmpty)
        #expect(products[2].path == "products[2]" && products[2].line == 7)
        #expect(root.entry(for: "products")?.line == 1)
        let fruits = try root.tableArray("fruits")
        #expect(try fruits[0].table("physical").string("color") == "red")
        #expect(try fruits[0].tableArray("varieties").map { try $0.string("name") } == ["red delicious", "granny smith"])
        #expect(try fruits[1].tableArray("varieties")[0].path == "fruits[1].varieties[0]")
    }

    @Test func documentEqualityIgnoresPositionsAndOrder() throws {
        let one = try parse("a = 1\nb = { c = 2 }")
        let two = try parse("b.c = 2\n\n\na = 1", file: "test.toml")
        #expect(one == two)
        #expect(try parse("a = 1") != (try parse("a = 2")))
    }
}
