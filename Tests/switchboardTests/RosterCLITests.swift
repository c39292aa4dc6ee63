import Foundation
import Testing
import TestSupport
import Store
import SwitchboardCore
@testable import switchboard

/// The commands over a roster bigger than a page: `accounts` streams, and
/// `switch` finds one account by what a person types.
@Suite("a big roster on the command line, in this process")
struct RosterCLITests {
    /// Names a provider might send, none of them kind to a terminal or to JSON.
    static let hostile = [
        "Ada \"the\" Lovelace", "back\\slash", "tab\there", "new\nline", "\u{1B}[31mred\u{1B}[0m", "del\u{7F}", "c1\u{85}\u{9B}",
        "bidi\u{202E}txt", "line\u{2028}sep", "Zoë Ångström", "😀 emoji", "slash/ok", "nul\u{0}byte",
    ]

    @Test("accounts and accounts --json, streamed a page at a time, print exactly what the whole list printed before")
    func streamedEqualsWhole() async throws {
        let cli = CLI()
        let database = try AppDatabase(path: cli.path)
        let people = (0..<300).map { index in
            let name = Self.hostile[index % Self.hostile.count] + " \(index)"
            return LinkedIdentity(
                identity: Identity(provider: index % 2 == 0 ? "github" : "demo", subject: "s\(index)\u{7}"),
                displayName: index % 5 == 0 ? nil : name, email: index % 3 == 0 ? nil : "p\(index)@example.org", emailVerified: true,
                state: index % 4 == 0 ? .expired : .authorized)
        }
        let ids = try Sample.signIn(people, into: database, session: SessionKey("setup")!)
        _ = try database.signIn(Sample.adaGoogle, mode: .link, session: SessionKey("setup")!)
        _ = try database.switchAccount(to: ids[7], session: SessionKey("tty-test")!)
        let accounts = try database.accounts()
        let active = ids[7]
        #expect(accounts.count == 300)

        let json = await cli.run("accounts", "--json")
        #expect(json.status == 0)
        #expect(json.stdout == jsonLine(accounts.map { AccountJSON($0, active: $0.id == active) }) + "\n")
        let text = await cli.run("accounts")
        #expect(text.status == 0)
        #expect(text.stdout == accounts.map { "\($0.id == active ? "●" : " ") \($0.id)\t\(describe($0, nameWidth: AccountsOutput.nameWidth))\n" }.joined())
        #expect(!text.stdout.unicodeScalars.contains { $0.isTerminalControl && $0 != "\n" && $0 != "\t" })
    }

    @Test("switch finds the account by id, name, email or provider:subject, case folded; not found and ambiguous say so")
    func findOne() async throws {
        let cli = CLI()
        let (ada, grace) = try cli.populate()
        for (query, id) in [("\(grace)", grace), ("ADA LOVELACE", ada), ("Ada@Example.org", ada), ("microsoft:oid-7:tid-1", grace), ("github:583231", ada)] {
            let result = await cli.run("switch", query, "--json")
            #expect(result.status == 0, "\(query): \(result.stderr)")
            #expect(result.stdout.contains("\"id\":\(id)"), "\(query): \(result.stdout)")
        }
        let missing = await cli.run("switch", "nobody@example.org")
        #expect(missing.status == 2 && missing.stderr.contains("no account matches"), "\(missing.stderr)")
    }
}
