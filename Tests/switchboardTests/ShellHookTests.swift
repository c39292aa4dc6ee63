import Foundation
import Store
import SwitchboardCore
import Testing
import TestSupport
@testable import switchboard

/// The shell hook, run by real bash, zsh and fish: each "prompt" is a call
/// of the hook function (fish: its prompt event), as the shell makes it
/// before drawing one. `switchboard hook-env` is run through a wrapper
/// that counts its runs, so a prompt that runs no process is seen to.
@Suite("switchboard hook: the shell's variables follow who acts here")
struct ShellHookTests {
    /// A home with Ada (verified ada@example.org) and Grace (grace@navy.example), a
    /// tree `work` whose `.switchboard` names Ada, and the wrapper.
    private struct Home {
        let folder = TemporaryFolder()
        var path: String { folder.path }
        var runs: String { folder.file("hook-env-runs") }
        var wrapper: String { folder.file("switchboard-wrapper") }

        init() throws {
            let database = try AppDatabase(testing: folder.file("db.sqlite"))
            let grace = LinkedIdentity(
                identity: Identity(provider: "microsoft", subject: "g-1"), displayName: "Grace Hopper", email: "grace@navy.example",
                emailVerified: true)
            _ = try Sample.signIn([Sample.adaGitHub, grace], into: database, session: SessionKey("setup")!)
            try FileManager.default.createDirectory(atPath: folder.file("work/deep/er"), withIntermediateDirectories: true)
            try "account = \"ada@example.org\"\n".write(toFile: folder.file("work/.switchboard"), atomically: true, encoding: .utf8)
            let script = "#!/bin/sh\n[ \"$1\" = hook-env ] && echo run >> '\(runs)'\nexec '\(builtProduct("switchboard"))' \"$@\"\n"
            try script.write(toFile: wrapper, atomically: true, encoding: .utf8)
            chmod(wrapper, 0o755)
        }

        var environment: [String: String] {
            [
                "HOME": path, "SWITCHBOARD_DATABASE": folder.file("db.sqlite"), "SWITCHBOARD_SESSION": "tty-hook",
                "XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("share"), "PATH": (folder.path + ":")
                    + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": folder.file("gitconfig"),
            ]
        }

        /// The hook's code for `shell`, running the wrapper instead of the program.
        func hook(_ shell: String) async throws -> String {
            let printed = try await runProcess(builtProduct("switchboard"), ["hook", shell], environment: environment)
            #expect(printed.status == 0, "\(printed.stderr)")
            return printed.stdout.replacingOccurrences(of: builtProduct("switchboard"), with: wrapper)
        }

        func runCount() -> Int {
            ((try? String(contentsOfFile: runs, encoding: .utf8)) ?? "").split(separator: "\n").count
        }
    }

    /// One prompt's report: `name|author email|prompt|chosen by|runs so far`.
    private static let report = #"echo "P ${SWITCHBOARD_ACCOUNT_NAME-}|${GIT_AUTHOR_EMAIL-}|${SWITCHBOARD_PROMPT-}|${SWITCHBOARD_CHOSEN_BY-}|$(wc -l < "$RUNS" 2>/dev/null || echo 0)""#

    /// The same session, as bash, zsh and fish each see it.
    private static func steps(prompt: String, cd: (String) -> String, runs: String) -> String {
        let sb = "switchboard-wrapper"
        return [
            prompt, "\(sb) switch hopper > /dev/null", prompt,
            // Nothing changed: no process.
            prompt,
            cd("work"), prompt,
            "\(sb) allow > /dev/null", prompt,
            cd("work/deep/er"), prompt,
            "\(sb) switch ada > /dev/null", prompt,
            cd(""), prompt,
            "\(sb) sign-out > /dev/null", prompt,
            "unset SWITCHBOARD_ACCOUNT", prompt,
        ].joined(separator: "\n")
    }

    private static let expected = [
        // nobody active at first
        "|||", "Grace Hopper|grace@navy.example|Grace Hopper|this terminal's choice",
        "Grace Hopper|grace@navy.example|Grace Hopper|this terminal's choice",
        // an untrusted rule: not applied
        "Grace Hopper|grace@navy.example|Grace Hopper|this terminal's choice",
        "Ada Lovelace|ada@example.org|Ada Lovelace (dir)|~/work/.switchboard line 1",
        "Ada Lovelace|ada@example.org|Ada Lovelace (dir)|~/work/.switchboard line 1",
        "Ada Lovelace|ada@example.org|Ada Lovelace (dir)|~/work/.switchboard line 1",
        "Ada Lovelace|ada@example.org|Ada Lovelace|this terminal's choice",
        "|||",
        "|||",
    ]

    private func check(_ output: String, runs: Int, shell: String) {
        let lines = output.split(separator: "\n").filter { $0.hasPrefix("P ") }.map { String($0.dropFirst(2)) }
        let states = lines.map { $0.split(separator: "|", omittingEmptySubsequences: false).prefix(4).joined(separator: "|") }
        #expect(states == Self.expected, "\(shell): \(output)")
        let counts = lines.compactMap { $0.split(separator: "|", omittingEmptySubsequences: false).last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
        // Each prompt after a change ran one process; the prompt after nothing ran none.
        #expect(counts.count == Self.expected.count && counts[1] == counts[2], "\(shell): a prompt with nothing changed ran a process: \(counts)")
        #expect(counts.last == runs, "\(shell): \(counts)")
    }

    @Test("bash: the variables follow switches, a trusted rule as you cd, a sign-out; nothing changed runs no process; PROMPT_COMMAND holds the hook once")
    func bash() async throws {
        let home = try Home()
        defer { home.folder.remove() }
        let hook = try await home.hook("bash")
        let script = "export RUNS='\(home.runs)'\ncd \"$HOME\"\n" + hook + hook
            + "[[ $PROMPT_COMMAND == _switchboard_hook ]] && echo once\n"
            + Self.steps(prompt: "_switchboard_hook; " + Self.report, cd: { "cd \"$HOME/\($0)\"" }, runs: home.runs)
            + "\nfalse; _switchboard_hook; echo \"kept $?\"\n"
        let result = try await runProcess("/bin/bash", ["--norc", "--noprofile", "-c", script], environment: home.environment)
        #expect(result.stdout.contains("once"), "\(result.stdout)")
        #expect(result.stdout.contains("kept 1"), "the prompt's exit status is kept: \(result.stdout)")
        #expect(result.stderr.contains("~/work/.switchboard names \"ada@example.org\" but is not allowed yet"), "\(result.stderr)")
        #expect(result.stderr.contains("Ada Lovelace here (~/work/.switchboard line 1)"), "\(result.stderr)")
        check(result.stdout, runs: home.runCount(), shell: "bash")
    }

    @Test("zsh: the same, from precmd_functions")
    func zsh() async throws {
        let home = try Home()
        defer { home.folder.remove() }
        let hook = try await home.hook("zsh")
        let script = "export RUNS='\(home.runs)'\ncd \"$HOME\"\n" + hook + hook
            + "(( ${#precmd_functions} == 1 )) && [[ $precmd_functions[1] == _switchboard_hook ]] && echo once\n"
            + Self.steps(prompt: "_switchboard_hook; " + Self.report, cd: { "cd \"$HOME/\($0)\"" }, runs: home.runs)
        let result = try await runProcess("/usr/bin/zsh", ["-f", "-c", script], environment: home.environment)
        #expect(result.stdout.contains("once"), "\(result.stdout) \(result.stderr)")
        check(result.stdout, runs: home.runCount(), shell: "zsh")
    }

    @Test("fish: the same, on the fish_prompt event")
    func fish() async throws {
        let home = try Home()
        defer { home.folder.remove() }
        let hook = try await home.hook("fish")
        let report = #"echo "P $SWITCHBOARD_ACCOUNT_NAME|$GIT_AUTHOR_EMAIL|$SWITCHBOARD_PROMPT|$SWITCHBOARD_CHOSEN_BY|"(count < $RUNS 2>/dev/null; or echo 0)"#
        let script = "set -gx RUNS '\(home.runs)'\ncd $HOME\n" + hook
            + Self.steps(prompt: "emit fish_prompt; " + report, cd: { "cd $HOME/\($0)" }, runs: home.runs)
        let result = try await runProcess("/usr/bin/fish", ["--no-config", "-c", script], environment: home.environment)
        check(result.stdout, runs: home.runCount(), shell: "fish")
    }
}
