import ConfigFile
import Testing

@Suite struct AccessorTests {
    let text = """
        title = "Switchboard"

        [providers.work]
        kind = "oid"
        client_id = 42
        clientid = "x"
        colour = "red"
        port = 70000
        scopes = ["openid", 7]
        enabled = "yes"
        ratio = 1
        servers = [{ name = "a" }, 3]
        """

    var work: TOMLTable {
        get throws { try parse(text).root.table("providers").table("work") }
    }

    @Test func missingKeyIsReportedAtTheTableHeader() throws {
        let work = try work
        #expect(errorText { _ = try work.string("issuer") } == "test.toml:3: providers.work.issuer: missing required key")
        let root = try parse("").root
        #expect(errorText { _ = try root.table("providers") } == "test.toml: providers: missing required key")
    }

    @Test func wrongTypeIsReportedAtTheKey() throws {
        let work = try work
        #expect(errorText { _ = try work.string("client_id") }
            == "test.toml:5: providers.work.client_id: expected a string, found an integer")
        #expect(errorText { _ = try work.optionalBool("enabled") }
            == "test.toml:10: providers.work.enabled: expected a boolean (true or false), found a string")
        #expect(errorText { _ = try work.table("kind") } == "test.toml:4: providers.work.kind: expected a table, found a string")
        #expect(errorText { _ = try work.optionalStringArray("scopes") }
            == "test.toml:9: providers.work.scopes[1]: expected a string, found an integer")
        #expect(errorText { _ = try work.tableArray("servers") }
            == "test.toml:12: providers.work.servers[1]: expected a table, found an integer")
        #expect(errorText { _ = try work.double("kind") } == "test.toml:4: providers.work.kind: expected a number, found a string")
    }

    @Test func outOfRangeIntegers() throws {
        let work = try work
        #expect(errorText { _ = try work.optionalInteger("port", in: 1...65535) }
            == "test.toml:8: providers.work.port: expected an integer from 1 to 65535, found 70000")
        #expect(try work.integer("port") == 70000)
    }

    @Test func oneOfSuggestsTheNearestValue() throws {
        let work = try work
        let kinds = ["oidc", "github", "google", "microsoft", "gitlab", "demo"]
        #expect(errorText { _ = try work.string("kind", oneOf: kinds) }
            == #"test.toml:4: providers.work.kind: expected one of "oidc", "github", "google", "microsoft", "gitlab", "demo", found something else (did you mean "oidc"?)"#)
        #expect(errorText { _ = try work.optionalString("colour", oneOf: ["auto", "never"]) }
            == #"test.toml:7: providers.work.colour: expected one of "auto", "never", found something else"#)
        #expect(try work.optionalString("absent", oneOf: kinds) == nil)
    }

    @Test func unknownKeysAreRejectedWithSuggestions() throws {
        let work = try work
        let allowed = ["kind", "client_id", "colour", "port", "scopes", "enabled", "ratio", "servers"]
        #expect(errorText { try work.rejectUnknownKeys(allowed: allowed) }
            == #"test.toml:6: providers.work.clientid: unknown key (did you mean "client_id"?)"#)
        #expect(errorText { try work.rejectUnknownKeys(allowed: ["kind", "client_id", "clientid"]) }
            == "test.toml:7: providers.work.colour: unknown key (allowed keys: kind, client_id, clientid)")
        let root = try parse("[Providers]\n").root
        #expect(errorText { try root.rejectUnknownKeys(allowed: ["providers", "theme"]) }
            == #"test.toml:1: Providers: unknown key (did you mean "providers"?)"#)
        #expect(throws: Never.self) { try work.rejectUnknownKeys(allowed: allowed + ["clientid", "title"]) }
    }

    @Test func optionalAccessorsReturnNilForAbsentKeys() throws {
        let work = try work
        #expect(try work.optionalString("nope") == nil)
        #expect(try work.optionalInteger("nope", in: 1...2) == nil)
        #expect(try work.optionalDouble("nope") == nil)
        #expect(try work.optionalArray("nope") == nil)
        #expect(try work.optionalTable("nope") == nil)
        #expect(try work.optionalTableArray("nope") == nil)
        #expect(try work.double("ratio") == 1.0)
        #expect(try work.array("scopes").count == 2)
    }

    @Test func tablesInFileOrder() throws {
        let root = try parse("[p.b]\n[p.a]\n[p.c]\n[p]\nstray = 1").root
        let p = try root.table("p")
        #expect(p.tables().map(\.name) == ["b", "a", "c"])
        #expect(errorText { _ = try p.allTables() } == "test.toml:5: p.stray: expected a table, found an integer")
    }

    @Test func customErrorsCarryPositions() throws {
        let work = try work
        #expect(work.error(key: "client_id", "must not be empty").description
            == "test.toml:5: providers.work.client_id: must not be empty")
        #expect(work.error(key: "issuer", "is required for oidc").description
            == "test.toml:3: providers.work.issuer: is required for oidc")
        #expect(work.error("is incomplete").description == "test.toml:3: providers.work: is incomplete")
        #expect(try parse("").root.error("is empty").description == "test.toml: is empty")
    }
}
