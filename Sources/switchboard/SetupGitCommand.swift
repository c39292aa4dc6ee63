import ArgumentParser
import DeviceFlow
import Foundation
import ProcessKit
import SwitchboardCore
import ToolCredentials

/// `switchboard setup-git [--global | --local] [--undo]`: makes
/// `switchboard git-credential` git's credential helper for each configured
/// provider's git servers, or takes exactly that out again.
struct SetupGitCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "setup-git",
        abstract: "Make switchboard git's credential helper for your providers' git servers (--undo takes it out).",
        discussion: """
            For each git server of a provider configured in config.toml (github.com for GitHub, a GitLab's host, \
            a provider's git_hosts, the demo provider's issuer when [providers.demo] is configured) it adds to \
            credential.<url>.helper an empty helper, which clears the helpers before it for that server, then \
            `!switchboard git-credential`, with `git config` (--global, the default: ~/.gitconfig; --local: this \
            repository's). Run again, it changes nothing; --undo removes exactly those entries, and a section \
            left empty. It prints what it changed; --json prints {"scope", "changes": [{"key", "change"}]} with \
            change added, unchanged, removed or absent.
            """)

    @OptionGroup var options: CommonOptions

    @Flag(exclusivity: .exclusive, help: "Where: --global (~/.gitconfig, the default) or --local (this repository's .git/config).")
    var scope: GitConfigFile.Scope = .global

    @Flag(name: .long, help: "Remove what setup-git added.")
    var undo = false

    /// Whether git finds a repository where the command runs (`GIT_DIR` included).
    private static func insideRepository(_ io: CommandIO) -> Bool {
        let found = try? ChildProcess.run("git", ["-C", io.workingDirectory, "rev-parse", "--git-dir"], environment: io.environment, timeout: 10, searchPath: true)
        return found?.status == 0
    }

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let providers = try context.configuration().providers.configured
        var servers: [GitServer] = []
        for server in providers.flatMap(GitServers.of) where !servers.contains(server) { servers.append(server) }
        // --local is this repository's configuration: outside one, say so in our words, not git's.
        if scope == .local, !servers.isEmpty, !Self.insideRepository(io) {
            throw io.fail("\(io.workingDirectory.displaySafe) is not inside a git repository, so it has no configuration of its own for "
                + "--local: run it in the repository, or use --global (the default)", .usage)
        }
        let git = GitConfigFile(scope: scope, environment: io.environment)
        var changes: [(key: String, change: String)] = []
        do throws(GitConfigFile.Failure) {
            for server in servers {
                let key = GitHelperEntries.key(for: server)
                changes.append((key, undo ? try git.undo(key, section: GitHelperEntries.section(for: server)) : try git.setUp(key)))
            }
        } catch {
            throw io.fail(error.description, .failure)
        }
        if options.json { return io.printJSON(SetupGitJSON(scope: scope.rawValue, changes: changes.map { .init(key: $0.key, change: $0.change) })) }
        if servers.isEmpty {
            return io.print("No configured provider serves git: add one to config.toml ([providers.github], a GitLab, or git_hosts); nothing was changed.")
        }
        io.print("In \(scope.described):")
        for (key, change) in changes {
            switch change {
            case "added": io.print("  \(key): added an empty helper (it clears those before it) and \(GitHelperEntries.helper)")
            case "unchanged": io.print("  \(key): already set up, unchanged")
            case "removed": io.print("  \(key): removed \(GitHelperEntries.helper) and the empty helper before it")
            default: io.print("  \(key): not set up, nothing to remove")
            }
        }
        // Credentials come per push; the author's name and email are the shell's, which the hook keeps current.
        if !undo, (io.environment["SWITCHBOARD_HOOK"] ?? "").isEmpty {
            let shell = ShellSyntax.fromEnvironment(io.environment)
            let hook = shell == .fish ? "switchboard hook fish | source" : "eval \"$(switchboard hook \(shell == .zsh ? "zsh" : "bash"))\""
            io.print("Commits take their author from the shell: add \(hook) to your shell's rc file, so that GIT_AUTHOR_NAME and "
                + "GIT_AUTHOR_EMAIL follow who acts in each terminal and folder (git's own user.name and user.email otherwise).")
        }
    }
}

/// `setup-git --json`.
struct SetupGitJSON: Encodable {
    struct Change: Encodable {
        let key: String
        let change: String
    }

    let scope: String
    let changes: [Change]
}

/// One git configuration file, read and written by running `git config`
/// (found on `PATH`, no shell) with the command's environment, so `HOME`,
/// `XDG_CONFIG_HOME`, `GIT_CONFIG_GLOBAL` and `GIT_DIR` count as they do for git.
struct GitConfigFile {
    /// Which file.
    enum Scope: String, EnumerableFlag {
        case global, local

        var described: String {
            switch self {
            case .global: "your global git configuration (git config --global)"
            case .local: "this repository's git configuration (git config --local)"
            }
        }
    }

    let scope: Scope
    let environment: [String: String]

    /// A failed `git config`, with what git said.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Adds what `setup-git` adds to `key`; "added" or "unchanged".
    func setUp(_ key: String) throws(Failure) -> String {
        let additions = GitHelperEntries.additions(to: try values(key))
        for value in additions { try run(["--add", key, value]) }
        return additions.isEmpty ? "unchanged" : "added"
    }

    /// Takes out what `setup-git` added to `key`, and `section` when that
    /// leaves it empty; "removed" or "absent".
    func undo(_ key: String, section: String) throws(Failure) -> String {
        let values = try values(key)
        guard values.contains(GitHelperEntries.helper) else { return "absent" }
        let kept = GitHelperEntries.undone(values)
        if !kept.contains("") {
            // Only its own lines go, wherever they are: every empty helper was one of them.
            if values.contains("") { try run(["--unset-all", key, "^$"]) }
            try run(["--fixed-value", "--unset-all", key, GitHelperEntries.helper])
        } else {
            // Another empty helper stays: the key's values are written again, in order, without ours.
            try run(["--unset-all", key])
            for value in kept { try run(["--add", key, value]) }
        }
        // git takes out a section its last key leaves empty; one left behind (an older git) goes too.
        let prefix = section + "."
        let names = try run(["--null", "--name-only", "--list"]).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        if !names.contains(where: { $0.hasPrefix(prefix) }) { try run(["--remove-section", section], absent: "no such section") }
        return "removed"
    }

    /// The values of `key` in this file, in order (none when it is unset).
    func values(_ key: String) throws(Failure) -> [String] {
        let output = try run(["--null", "--get-all", key], absentStatus: 1)
        return output.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    }

    /// Runs `git config --<scope> arguments`; returns its output. An exit
    /// with `absentStatus` (git's "no such key"), or a failure whose message
    /// holds `absent`, gives no output.
    @discardableResult
    private func run(_ arguments: [String], absentStatus: Int32? = nil, absent: String? = nil) throws(Failure) -> [UInt8] {
        let result: ChildProcess.Output
        do {
            result = try ChildProcess.runCapturing(
                "git", ["config", "--\(scope.rawValue)"] + arguments, environment: environment, timeout: 30, searchPath: true)
        } catch {
            throw Failure(description: "cannot run git: \(error.description); install git (`apt-get install git`)")
        }
        if result.status == 0 { return result.stdout }
        if result.status == absentStatus { return [] }
        let said = String(decoding: result.stderr, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? "status \(result.status)"
        if let absent, said.contains(absent) { return [] }
        throw Failure(description: "git config --\(scope.rawValue) failed: \(said.displaySafe)")
    }
}
