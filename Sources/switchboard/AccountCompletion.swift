import Foundation
import Store
import SwitchboardCore

/// What shell completion offers for an account or a provider, read from
/// the store and configuration this process would use. Any failure offers
/// nothing: completion never prints an error into a command line.
enum AccountCompletion {
    /// For ArgumentParser: `names(startingWith:io:)` with this process's own.
    @Sendable static func accounts(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        names(startingWith: prefix, io: quietIO())
    }

    /// For ArgumentParser: `providers(startingWith:io:)` with this process's own.
    @Sendable static func providers(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        providers(startingWith: prefix, io: quietIO())
    }

    /// Accounts' names, emails and `provider:login`s that start with
    /// `prefix` (case-insensitive), most recently used first, at most 200.
    static func names(startingWith prefix: String, io: CommandIO) -> [String] {
        guard let context = context(io), let database = try? context.openDatabase(.readOnlyIfUnwritable) else { return [] }
        let wanted = prefix.lowercased()
        var offered: [String] = [], seen = Set<String>()
        func offer(_ text: String?) {
            guard let text, !text.isEmpty, !text.containsTerminalControl, text.lowercased().hasPrefix(wanted), seen.insert(text).inserted else { return }
            offered.append(text)
        }
        try? database.forEachAccount { account in
            guard offered.count < 200 else { return }
            offer(account.name)
            for linked in account.identities {
                offer(linked.email)
                offer(linked.login.map { "\(linked.provider):\($0)" })
            }
        }
        return offered
    }

    /// The providers configured (and the built-in ones) whose names start with `prefix`.
    static func providers(startingWith prefix: String, io: CommandIO) -> [String] {
        guard let configuration = try? context(io)?.configuration() else { return [] }
        return configuration.providers.providers.map(\.id.rawValue).filter { $0.hasPrefix(prefix) }
    }

    private static func context(_ io: CommandIO) -> CommandContext? {
        guard let options = try? CommonOptions.parse([]) else { return nil }
        return CommandContext(options, io: io)
    }

    /// This process's own, with standard error discarded.
    private static func quietIO() -> CommandIO {
        var io = CommandIO.process()
        io.stderr = Discarded()
        return io
    }

    private struct Discarded: TextOutput {
        func write(_ text: String) {}
    }
}
