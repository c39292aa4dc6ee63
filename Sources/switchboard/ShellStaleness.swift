import Foundation
import SwitchboardCore
import ToolCredentials

/// After `switch` or `sign-in`, in a shell without the hook: whether the
/// variables this shell exported (from an earlier `eval "$(switchboard
/// env)"`) still name someone else, so that commits made here would carry
/// the wrong person. Said once per command, as one warning on standard error.
enum ShellStaleness {
    /// What is stale in `environment` now that `account` is active; nil when nothing is.
    static func problem(after account: Account?, git: GitSettings, environment: [String: String]) -> String? {
        // The hook brings every variable up to date at the next prompt.
        guard (environment["SWITCHBOARD_HOOK"] ?? "").isEmpty else { return nil }
        var stale: [String] = []
        if let named = AccountChoice.explicitAccount(in: environment), named != account.map({ String($0.id.rawValue) }) {
            stale.append("SWITCHBOARD_ACCOUNT=\(named) (so token, git and kubectl here act as that account)")
        }
        if git.setIdentity, let email = environment["GIT_AUTHOR_EMAIL"], !email.isEmpty {
            let wanted = account.flatMap { CommitIdentity.of($0, settings: git) }?.email
            if wanted != email { stale.append("GIT_AUTHOR_EMAIL=\(email) (so commits here carry that person)") }
        }
        guard !stale.isEmpty else { return nil }
        let shell = ShellSyntax.fromEnvironment(environment)
        return "this shell still has " + stale.joined(separator: " and ") + ": run eval \"$(switchboard env)\" now, or put "
            + "eval \"$(switchboard hook \(shell == .sh ? "bash" : shell.rawValue))\" in your shell's rc file to keep them current at every prompt"
    }

    /// Says `problem` on standard error, when there is one.
    static func warn(after account: Account?, git: GitSettings, io: CommandIO) {
        guard let problem = problem(after: account, git: git, environment: io.environment) else { return }
        io.stderr.write("switchboard: warning: \(problem.displaySafe)\n")
    }
}
