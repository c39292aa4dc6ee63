import ArgumentParser
import Foundation
import Store
import SwitchboardCore

/// `switchboard allow [PATH]`: trust the directory rule as it is now.
struct AllowCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "allow",
        abstract: "Trust the directory rule in force here (or PATH's) as it is now, so that it applies.",
        discussion: """
            A rule is a .switchboard file (found from this folder up to your home folder) or git config \
            switchboard.account in a repository. It applies only once allowed, and only as it was allowed: a rule \
            changed since is reported and not applied until allowed again. Rules in your global git configuration \
            are yours and need no allowing.
            """)

    @OptionGroup var options: CommonOptions

    @Argument(help: "A .switchboard file or a folder (default: this folder).", completion: .file())
    var path: String?

    func run(io: CommandIO) async throws {
        try RuleVerdict.record(allowed: true, path: path, context: CommandContext(options, io: io))
    }
}

/// `switchboard deny [PATH]`: keep the rule off, and stop reporting it.
struct DenyCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "deny",
        abstract: "Keep the directory rule in force here (or PATH's) off, and stop reporting it until it changes.")

    @OptionGroup var options: CommonOptions

    @Argument(help: "A .switchboard file or a folder (default: this folder).", completion: .file())
    var path: String?

    func run(io: CommandIO) async throws {
        try RuleVerdict.record(allowed: false, path: path, context: CommandContext(options, io: io))
    }
}

/// What `allow` and `deny` share: finding the rule, recording the verdict, saying it.
enum RuleVerdict {
    static func record(allowed: Bool, path: String?, context: CommandContext) throws {
        let io = context.io
        let home = HomeDirectory.path(environment: io.environment)
        let rule = try find(path, io: io, home: home)
        if rule.isOwnConfiguration {
            io.print("\(rule.place(home: home)) is in your own git configuration: it applies without allowing.")
            return
        }
        do { try RuleTrust(environment: io.environment).record(rule, allowed: allowed) } catch {
            throw io.fail(error.description, .failure)
        }
        // The hooks of this store's shells look again at their next prompt.
        if case .file(let database)? = try? context.storeChoice().location { ChangeSignal.raise(for: database) }
        guard allowed else {
            return io.print("Denied \(rule.place(home: home).displaySafe): it is not applied, nor reported again until it changes.")
        }
        io.print("Allowed \(rule.place(home: home).displaySafe).")
        let database = try? context.openDatabase(.readOnlyIfUnwritable)
        let named = (rule.account.map { [("", $0)] } ?? []) + rule.providers.sorted { $0.key < $1.key }.map { ("for \($0.key): ", $0.value) }
        for (label, name) in named {
            let line = "  \(label)\(String(reflecting: name.query).displaySafe)"
            guard let database else { io.print(line); continue }
            do {
                let account = try database.findAccount(name.query)
                let pin = (try? database.hasPIN(.account(account.id))) == true ? " (it has a PIN: commands here ask for it)" : ""
                io.print("\(line) is \(account.name.displaySafe), account \(account.id)\(pin)")
            } catch {
                io.stderr.write("switchboard: warning: \(rule.place(of: name, home: home).displaySafe): \(error.description.displaySafe)\n")
            }
        }
    }

    /// The rule at `path` (a file, or the rule in force in a folder), else
    /// the one in force in the working directory; none is an error.
    private static func find(_ path: String?, io: CommandIO, home: String) throws -> DirectoryRule {
        var folder = io.workingDirectory
        if let path {
            let absolute = path.hasPrefix("/") ? path : (io.workingDirectory == "/" ? "" : io.workingDirectory) + "/" + path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isFolder) else {
                throw io.fail("\(path.displaySafe): no such file or folder", .notFound)
            }
            if !isFolder.boolValue {
                do { return try DirectoryRules.read(absolute) } catch { throw io.fail(error.description, .configuration) }
            }
            folder = absolute
        }
        switch DirectoryRules.find(from: folder, home: home, environment: io.environment) {
        case .rule(let rule): return rule
        case .broken(let error): throw io.fail(error.description, .configuration)
        case .none:
            throw io.fail("no directory rule here: no \(DirectoryRules.fileName) from \(folder.displaySafe) up to your home folder, "
                + "and no git config switchboard.account", .notFound)
        }
    }
}
