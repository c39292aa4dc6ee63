import Foundation
import GRDB
import Testing
import TestSupport
import Store
import SwitchboardCore

@Suite("switchboard pin and PIN-protected switches")
struct PINCLITests {
    @Test("pin set and clear read standard input; a PIN already set needs the current one; --json names the owner only")
    func setAndClear() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
        let set = await cli.run("pin", "set", "--json", input: "2468\n")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "{\"owner\":\"account:\(ada)\",\"pin\":\"set\"}\n")
        #expect(try AppDatabase(testing: cli.path).protectedAccounts() == [ada])
        // Replacing it: the current PIN first, then the new one.
        let wrong = await cli.run("pin", "set", "Ada Lovelace", input: "1111\n3579\n")
        #expect(wrong.status == 8)
        #expect(wrong.stderr == "switchboard: that is not Ada Lovelace's PIN (account \(ada))\n")
        let replaced = await cli.run("pin", "set", "Ada Lovelace", input: "2468\n3579\n")
        #expect(replaced.status == 0 && replaced.stdout == "PIN set for Ada Lovelace.\n")
        let cleared = await cli.run("pin", "clear", "\(ada)", input: "3579\n")
        #expect(cleared.status == 0 && cleared.stdout == "PIN cleared for Ada Lovelace.\n")
        #expect(try AppDatabase(testing: cli.path).protectedAccounts() == [])
        let none = await cli.run("pin", "clear", "\(ada)")
        #expect(none.status == 0 && none.stdout == "Ada Lovelace has no PIN.\n")
        for output in [set, wrong, replaced, cleared] {
            for digits in ["2468", "1111", "3579"] { #expect(!(output.stdout + output.stderr).contains(digits)) }
        }
    }

    @Test("a bad PIN is refused with a message naming the field; no standard input is said so", arguments: [
        ("123\n", "switchboard: new PIN: must be 4 to 12 digits, not 3\n"),
        ("12345678901234\n", "switchboard: new PIN: must be 4 to 12 digits, not 14\n"),
        ("12ab\n", "switchboard: new PIN: must be digits only (0-9)\n"),
        ("", "switchboard: new PIN: standard input ended before it was given\n"),
    ])
    func badPIN(_ input: String, _ message: String) async throws {
        let cli = CLI()
        _ = try cli.populate()
        let result = await cli.run("pin", "set", "Grace Hopper", input: input)
        #expect(result.status == 64)
        #expect(result.stderr == message)
        #expect(try AppDatabase(testing: cli.path).protectedAccounts() == [])
    }

    @Test("switch to a protected account in a script: refused without --pin-stdin (7), a wrong PIN (8), the right one switches")
    func switchInScript() async throws {
        let cli = CLI()
        let (_, grace) = try cli.populate()
        #expect(await cli.run("pin", "set", "Grace Hopper", input: "97531\n").status == 0)
        let refused = await cli.run("switch", "Grace Hopper", input: "97531\n")
        #expect(refused.status == 7)
        #expect(refused.stderr.contains("has a PIN and standard input is not a terminal") && refused.stderr.contains("--pin-stdin"))
        let wrong = await cli.run("switch", "Grace Hopper", "--pin-stdin", input: "13579\n")
        #expect(wrong.status == 8)
        #expect(wrong.stderr == "switchboard: that is not Grace Hopper's PIN (account \(grace))\n")
        #expect(await cli.run("status", "--json").stdout.contains("\"active\":null"))
        let right = await cli.run("switch", "Grace Hopper", "--pin-stdin", "--json", input: "97531\n")
        #expect(right.status == 0, "\(right.stderr)")
        #expect(right.stdout.contains("\"id\":\(grace)") && !right.stdout.contains("97531"))
        // Unprotected accounts switch as before, and no PIN is read.
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
    }

    @Test("after five wrong PINs the wait holds in a new invocation, even for the right PIN; the operator PIN resets it")
    func lockoutAcrossProcesses() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        #expect(await cli.run("pin", "set", "Ada Lovelace", input: "2468\n").status == 0)
        for _ in 1...4 { #expect(await cli.run("switch", "Ada Lovelace", "--pin-stdin", input: "0000\n").status == 8) }
        let fifth = await cli.run("switch", "Ada Lovelace", "--pin-stdin", input: "0000\n")
        #expect(fifth.status == 8)
        #expect(fifth.stderr.contains("the next may be made in"))
        let locked = await cli.run("switch", "Ada Lovelace", "--pin-stdin", input: "2468\n")
        #expect(locked.status == 9)
        #expect(locked.stderr.hasPrefix("switchboard: too many wrong tries at Ada Lovelace's PIN (account \(ada)); try again in "))
        #expect(try AppDatabase(testing: cli.path).pinAttempts(of: .account(ada)).failures == 5)
        // No operator PIN yet: reset is refused; then the operator sets one and resets.
        #expect(await cli.run("pin", "reset", "Ada Lovelace", input: "7777\n").status == 4)
        #expect(await cli.run("pin", "set", "--operator", input: "7777\n").status == 0)
        #expect(await cli.run("pin", "reset", "Ada Lovelace", input: "1234\n").status == 8)
        let reset = await cli.run("pin", "reset", "Ada Lovelace", input: "7777\n")
        #expect(reset.status == 0 && reset.stdout == "Wrong tries cleared for Ada Lovelace.\n")
        #expect(await cli.run("switch", "Ada Lovelace", "--pin-stdin", input: "2468\n").status == 0)
        // The operator PIN also stands in for a forgotten profile PIN.
        #expect(await cli.run("pin", "clear", "Ada Lovelace", input: "7777\n").status == 0)
        #expect(await cli.run("pin", "clear", "--operator", input: "2468\n").status == 8)
        #expect(await cli.run("pin", "clear", "--operator", input: "7777\n").status == 0)
    }

    @Test("the operator's walk reads right in switchboard log: wrong operator PINs (with the lock-out they start) and a pin reset, in the terminal's session, never the digits")
    func operatorWalkLogged() async throws {
        let cli = CLI()
        _ = try cli.populate()
        #expect(await cli.run("pin", "set", "Ada Lovelace", input: "2468\n").status == 0)
        #expect(await cli.run("pin", "set", "--operator", input: "7777\n").status == 0)
        // A wrong operator PIN at a reset, and one given to replace the operator PIN.
        #expect(await cli.run("pin", "reset", "Ada Lovelace", "--session", "ops/pts/3", input: "1234\n").status == 8)
        #expect(await cli.run("pin", "set", "--operator", input: "1235\n6666\n").status == 8)
        let reset = await cli.run("pin", "reset", "Ada Lovelace", "--session", "ops/pts/3", input: "7777\n")
        #expect(reset.status == 0, "\(reset)")
        let log = await cli.run("log")
        #expect(log.status == 0, "\(log.stderr)")
        let lines = log.stdout.split(separator: "\n").map(String.init)
        let wrong = lines.filter { $0.contains("wrong operator PIN") }
        #expect(wrong.count == 2, "\(lines)")
        #expect(wrong.first?.contains("ops/pts/3") == true, "the first in the session it was given in: \(wrong)")
        #expect(lines.last?.contains("ops/pts/3  Ada Lovelace  PIN wrong tries cleared (account:") == true, "\(lines)")
        #expect(lines.last?.hasSuffix("by the operator at ops/pts/3") == true, "\(lines)")
        for digits in ["1234", "1235", "7777", "2468", "6666"] { #expect(!log.stdout.contains(digits)) }
        // Five more wrong ones lock the operator PIN out: the log says until when.
        for _ in 1...5 { _ = await cli.run("pin", "reset", "Ada Lovelace", input: "0000\n") }
        let locked = await cli.run("log")
        #expect(locked.stdout.split(separator: "\n").last?.contains("wrong operator PIN, locked out until ") == true, "\(locked.stdout)")
    }

    @Test("tokens of a protected account for a session where it is not active take its PIN: token, env --tokens and exec alike")
    func tokensTakeThePIN() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        #expect(await cli.run("pin", "set", "Ada Lovelace", input: "2468\n").status == 0)
        let refused = await cli.run("token", "github", "--account", "Ada Lovelace")
        #expect(refused.status == 7 && refused.stdout.isEmpty, "\(refused.stderr)")
        let wrong = await cli.run("token", "github", "--account", "Ada Lovelace", "--pin-stdin", input: "1111\n")
        #expect(wrong.status == 8 && wrong.stdout.isEmpty)
        let env = await cli.run("env", "--tokens", "--account", "Ada Lovelace", "--json")
        #expect(env.status == 7 && !env.stdout.contains("SECRET"))
        let token = await cli.run("token", "github", "--account", "Ada Lovelace", "--pin-stdin", input: "2468\n")
        #expect(token.status == 0 && token.stdout == "gho_SECRETaccess\n", "\(token.stderr)")
        // Where she is active, her tokens are this session's own: no PIN.
        #expect(await cli.run("switch", "Ada Lovelace", "--pin-stdin", input: "2468\n").status == 0)
        #expect(await cli.run("token", "github").stdout == "gho_SECRETaccess\n")
        // Locked out after wrong tries: not even the right PIN hands them to another session.
        for _ in 1...5 { _ = await cli.run("token", "github", "--account", "Ada Lovelace", "--pin-stdin", session: "other", input: "0000\n") }
        let locked = await cli.run("token", "github", "--account", "Ada Lovelace", "--pin-stdin", session: "other", input: "2468\n")
        #expect(locked.status == 9 && locked.stdout.isEmpty)
        #expect(try AppDatabase(testing: cli.path).pinAttempts(of: .account(ada)).failures == 5)
    }

    @Test("exec --pin-stdin reads the PIN's line only, needed or not: the rest of standard input is the command's")
    func execReadsOnlyThePINLine() async throws {
        let cli = CLI()
        _ = try cli.populate()
        #expect(await cli.run("pin", "set", "Ada Lovelace", input: "2468\n").status == 0)
        let exec = try await cli.spawn(
            "exec", "--account", "Ada Lovelace", "--pin-stdin", "--provider", "github", "--", "/bin/sh", "-c", #"read line; echo "$line $GH_TOKEN""#,
            input: "2468\nhello\n")
        #expect(exec.status == 0 && exec.stdout == "hello gho_SECRETaccess\n", "\(exec.stderr)")
        // Where she is active, her tokens are this session's own: no PIN, but --pin-stdin's line is still read.
        #expect(await cli.run("switch", "Ada Lovelace", "--pin-stdin", input: "2468\n").status == 0)
        let unneeded = try await cli.spawn(
            "exec", "--account", "Ada Lovelace", "--pin-stdin", "--provider", "github", "--", "/bin/sh", "-c", #"read line; echo "[$line]""#,
            input: "2468\nnext\n")
        #expect(unneeded.stdout == "[next]\n", "\(unneeded.stdout) \(unneeded.stderr)")
    }

    @Test("disconnecting an identity of a protected account takes its PIN or the operator PIN; without, nothing changes")
    func disconnectTakesThePIN() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        #expect(await cli.run("pin", "set", "Ada Lovelace", input: "2468\n").status == 0)
        #expect(await cli.run("pin", "set", "--operator", input: "7777\n").status == 0)
        let google = Sample.adaGoogle.identity.description
        let refused = await cli.run("disconnect", google)
        #expect(refused.status == 7, "\(refused.stderr)")
        #expect(await cli.run("disconnect", google, "--pin-stdin", input: "1357\n").status == 8)
        #expect(try AppDatabase(testing: cli.path).account(ada)?.identities.count == 2)
        let done = await cli.run("disconnect", google, "--pin-stdin", "--operator-pin", input: "7777\n")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try AppDatabase(testing: cli.path).account(ada)?.identities.count == 1)
        #expect(try AppDatabase(testing: cli.path).protectedAccounts() == [ada])
    }

    @Test("a PIN of the wrong form on --pin-stdin is refused and costs no try", arguments: ["\n", "12ab\n", "1234567890123\n", "٢٤٦٨\n"])
    func wrongFormCostsNothing(_ input: String) async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        #expect(await cli.run("pin", "set", "Ada Lovelace", input: "2468\n").status == 0)
        let result = await cli.run("switch", "Ada Lovelace", "--pin-stdin", input: input)
        #expect(result.status == 64 && result.stderr.hasPrefix("switchboard: PIN: "), "\(result.stderr)")
        #expect(try AppDatabase(testing: cli.path).pinAttempts(of: .account(ada)).failures == 0)
    }

    @Test("accounts marks an account with a PIN 🔒 and --json says pin: true; names line up; a revoked identity is ✗ as in the chooser")
    func accountsMarks() async throws {
        let cli = CLI()
        let (ada, _) = try cli.populate()
        #expect(await cli.run("switch", "Ada Lovelace").status == 0)
        #expect(await cli.run("pin", "set", input: "2468\n").status == 0)
        _ = try AppDatabase(testing: cli.path).recordCheck(Sample.graceGitHub.identity, state: .revoked)
        let listed = await cli.run("accounts")
        // Names padded to one column (the lock is two columns wide), so the identities line up.
        #expect(listed.stdout.contains("\t" + "Ada Lovelace 🔒" + String(repeating: " ", count: 5) + "  github ✓, google ✓\n"), "\(listed.stdout)")
        #expect(listed.stdout.contains("\t" + "Grace Hopper" + String(repeating: " ", count: 8) + "  github ✗ revoked, microsoft ⚠ expired\n"), "\(listed.stdout)")
        let json = await cli.run("accounts", "--json")
        #expect(json.stdout.contains("\"id\":\(ada),\"identities\"") && json.stdout.contains("\"name\":\"Ada Lovelace\",\"pin\":true"), "\(json.stdout)")
        #expect(json.stdout.contains("\"name\":\"Grace Hopper\",\"pin\":false"))
    }

    @Test("pin reset with no operator PIN set says how to set one (4), and asks for nothing")
    func resetWithoutOperator() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let reset = await cli.run("pin", "reset", "ada")
        #expect(reset.status == 4)
        #expect(reset.stderr.contains("Ada Lovelace's wrong tries takes the operator PIN, and none is set") && reset.stderr.contains("`switchboard pin set --operator`"), "\(reset.stderr)")
    }

    @Test("--help lists the new exit statuses, and pin takes no PIN as an argument")
    func help() async throws {
        let cli = CLI()
        let help = await cli.run("--help")
        #expect(help.stdout.contains("7\u{A0}\u{A0}the account has a PIN and none could be asked for"))
        #expect(help.stdout.contains("8\u{A0}\u{A0}wrong PIN"))
        #expect(help.stdout.contains("9\u{A0}\u{A0}too many wrong PINs"))
        let extra = await cli.run("pin", "set", "Ada", "1234")
        #expect(extra.status == 64)
    }
}
