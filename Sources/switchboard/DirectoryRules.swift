import ConfigFile
import Crypto
import Foundation
import ProcessKit
import SwitchboardCore

/// A directory rule: which account a tree acts as. Written in a
/// `.switchboard` file at the tree's top,
///
/// ```toml
/// account = "ada@example.com"     # a name, email, provider:login or provider:subject
/// [providers]
/// github = "github:ada-at-work"   # for GitHub only (git, token github)
/// ```
///
/// or in git's configuration, so that `includeIf` chooses it per tree:
/// `switchboard.account`, and `switchboard.PROVIDER.account` for one provider.
struct DirectoryRule: Sendable, Equatable {
    /// Where a rule was written.
    enum Source: Sendable, Equatable {
        /// A `.switchboard` file.
        case file(String)
        /// git's configuration: the file the value came from, and its scope
        /// (`global`, `system`, `local`, `worktree`, `command`).
        case gitConfig(file: String, scope: String)
    }

    /// One account named, and the line it was named on (none in git's configuration).
    struct Named: Sendable, Equatable {
        let query: String
        let line: Int?
    }

    let source: Source
    /// The account for every provider not named on its own.
    let account: Named?
    /// The account for one provider.
    let providers: [String: Named]
    /// What trusting the rule trusts: the SHA-256 of its file's bytes (of
    /// the values, for git's configuration), as hex.
    let digest: String

    /// The account for `provider` (nil: for no provider in particular).
    func named(for provider: ProviderID?) -> Named? {
        provider.flatMap { providers[$0.rawValue] } ?? account
    }

    /// The path trust is remembered by: the file (for git's configuration,
    /// `git:` and the file its value came from).
    var trustPath: String {
        switch source {
        case .file(let path): path
        case .gitConfig(let file, _): "git:" + file
        }
    }

    /// Whether the rule is the person's own without asking: one in their
    /// global or the system's git configuration is; a file in a tree, or a
    /// repository's own configuration (which a tool may have written), is
    /// not until allowed.
    var isOwnConfiguration: Bool {
        if case .gitConfig(_, let scope) = source { return scope == "global" || scope == "system" }
        return false
    }

    /// Where `named` was written, for people: `~/work/.switchboard line 2`,
    /// `git config switchboard.account (~/.gitconfig-work)`.
    func place(of named: Named, home: String) -> String {
        switch source {
        case .file(let path): return DirectoryRules.shortened(path, home: home) + (named.line.map { " line \($0)" } ?? "")
        case .gitConfig(let file, _):
            let key = providers.first { $0.value == named }.map { "switchboard.\($0.key).account" } ?? "switchboard.account"
            return "git config \(key) (\(DirectoryRules.shortened(file, home: home)))"
        }
    }

    /// Where the rule is, for people.
    func place(home: String) -> String {
        switch source {
        case .file(let path): DirectoryRules.shortened(path, home: home)
        case .gitConfig(let file, _): "git config switchboard.account (\(DirectoryRules.shortened(file, home: home)))"
        }
    }
}

/// Finding the rule in force in a folder, and reading it.
enum DirectoryRules {
    /// A rule file's name.
    static let fileName = ".switchboard"
    /// What was found for a folder: nothing, a rule, or a rule file that
    /// cannot be read (its error names file, line and key).
    enum Found: Sendable, Equatable {
        case none
        case rule(DirectoryRule)
        case broken(ConfigError)
    }

    /// The rule in force in `directory`: the nearest `.switchboard` from it
    /// up to `home` (to `/` outside it), else, inside a git repository,
    /// git's configuration there (`git` run with `environment`).
    static func find(from directory: String, home: String, environment: [String: String]) -> Found {
        var repository = false
        for folder in folders(from: directory, home: home) {
            let path = folder == "/" ? "/" + fileName : folder + "/" + fileName
            if isRegularFile(path) {
                do { return .rule(try read(path)) } catch { return .broken(error) }
            }
            if !repository, exists((folder == "/" ? "" : folder) + "/.git") { repository = true }
        }
        guard repository, let rule = gitRule(in: directory, environment: environment) else { return .none }
        return .rule(rule)
    }

    /// `directory` and each folder above it, up to and including `home`
    /// when `directory` is inside it, else up to `/`.
    static func folders(from directory: String, home: String) -> [String] {
        var folders: [String] = []
        var current = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        let top = home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
        let stopAtHome = current == top || current.hasPrefix(top == "/" ? "/" : top + "/")
        while true {
            folders.append(current)
            if current == "/" || current.isEmpty || (stopAtHome && current == top) { break }
            guard let slash = current.lastIndex(of: "/") else { break }
            current = slash == current.startIndex ? "/" : String(current[..<slash])
        }
        return folders
    }

    /// Reads a `.switchboard` file: `account`, and a `[providers]` table of
    /// provider to account; nothing else. Errors name file, line and key.
    static func read(_ path: String) throws(ConfigError) -> DirectoryRule {
        let text = try ConfigFile.text(path: path)
        return try parse(text, path: path, digest: digest(of: Array(text.utf8)))
    }

    /// Parses a rule file's text.
    static func parse(_ text: String, path: String, digest: String) throws(ConfigError) -> DirectoryRule {
        let root = try TOMLParser.parse(text, file: path).root
        try root.rejectUnknownKeys(allowed: ["account", "providers"])
        let account = try named(root, "account")
        var providers: [String: Named] = [:]
        if let table = try root.optionalTable("providers") {
            for entry in table.entries {
                providers[entry.key] = try named(table, entry.key)
            }
        }
        guard account != nil || !providers.isEmpty else {
            throw ConfigError(file: path, message: "names no account: write account = \"NAME\" (a name, email, provider:login or provider:subject)")
        }
        return DirectoryRule(source: .file(path), account: account, providers: providers, digest: digest)
    }

    private typealias Named = DirectoryRule.Named

    private static func named(_ table: TOMLTable, _ key: String) throws(ConfigError) -> Named? {
        guard let entry = table.entry(for: key) else { return nil }
        let query = try table.string(key).trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty, !query.containsTerminalControl else {
            throw table.error(key: key, "must name an account: a name, email, provider:login or provider:subject")
        }
        return Named(query: query, line: entry.line)
    }

    /// git's `switchboard.*` settings as seen in `directory`, as one rule;
    /// nil when there are none, or git cannot be run. A value that is not
    /// one of the rule's keys is left out.
    static func gitRule(in directory: String, environment: [String: String]) -> DirectoryRule? {
        let arguments = ["-C", directory, "config", "-z", "--show-origin", "--show-scope", "--get-regexp", #"^switchboard\."#]
        guard let output = try? ChildProcess.runCapturing("git", arguments, environment: environment, timeout: 5, searchPath: true),
            output.status == 0
        else { return nil }
        return parseGit(output.stdout)
    }

    /// Parses `git config -z --show-origin --show-scope --get-regexp`:
    /// records of `scope NUL origin NUL key LF value NUL`; the last of a key wins, as in git.
    static func parseGit(_ bytes: [UInt8]) -> DirectoryRule? {
        let fields = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var account: (Named, String, String)?
        var providers: [String: (Named, String, String)] = [:]
        var index = 0
        while index + 2 < fields.count {
            let scope = fields[index], origin = fields[index + 1], pair = fields[index + 2]
            index += 3
            let parts = pair.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, origin.hasPrefix("file:") else { continue }
            let key = parts[0].lowercased(), value = parts[1].trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty, !value.containsTerminalControl else { continue }
            let file = String(origin.dropFirst(5)), named = Named(query: value, line: nil)
            if key == "switchboard.account" {
                account = (named, file, scope)
            } else if key.hasSuffix(".account"), key.hasPrefix("switchboard.") {
                let provider = String(parts[0].dropFirst("switchboard.".count).dropLast(".account".count))
                if !provider.isEmpty { providers[provider] = (named, file, scope) }
            }
        }
        // The rule is trusted as the least trusted file any of its values came from.
        let all = (account.map { [$0] } ?? []) + providers.values.sorted { $0.1 < $1.1 }
        guard let weakest = all.first(where: { $0.2 != "global" && $0.2 != "system" }) ?? all.first else { return nil }
        let text = ([account.map { "account=\($0.0.query)" } ?? ""] + providers.keys.sorted().map { "\($0)=\(providers[$0]!.0.query)" })
            .joined(separator: "\n")
        return DirectoryRule(
            source: .gitConfig(file: weakest.1, scope: weakest.2), account: account?.0, providers: providers.mapValues(\.0),
            digest: digest(of: Array(text.utf8)))
    }

    /// SHA-256 as lower-case hex.
    static func digest(of bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// `path` with the home folder written `~`.
    static func shortened(_ path: String, home: String) -> String {
        guard home.count > 1, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }
}
