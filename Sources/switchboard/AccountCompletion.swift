import Foundation
import Store
import SwitchboardCore

/// What shell completion offers for an account or a provider, read from
/// the store and configuration this process would use. Any failure offers
/// nothing: completion never prints an error into a command line.
enum AccountCompletion {
    /// Accounts' names, emails and `provider:login`s that start with the
    /// word being completed (case-insensitive), at most 200.
    @Sendable static func accounts(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let context = quietContext()
        guard let database = try? context.openDatabase(.readOnlyIfUnwritable) else { return [] }
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

    /// The providers config.toml configures, and the built-in ones.
    @Sendable static func providers(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let context = quietContext()
        guard let configuration = try? context.configuration() else { return [] }
        return configuration.providers.providers.map(\.id.rawValue).filter { $0.hasPrefix(prefix) }
    }

    /// This process's context with standard error discarded.
    private static func quietContext() -> CommandContext {
        var io = CommandIO.process()
        io.stderr = Discarded()
        return CommandContext(CommonOptions(), io: io)
    }

    private struct Discarded: TextOutput {
        func write(_ text: String) {}
    }
}
