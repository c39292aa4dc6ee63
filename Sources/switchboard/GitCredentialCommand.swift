import ArgumentParser
import DeviceFlow
import Foundation
import Services
import SwitchboardCore
import ToolCredentials

/// `switchboard git-credential get|store|erase`: git's credential helper
/// (gitcredentials(7)), answering with the access token of the account
/// active in the terminal git runs in.
struct GitCredentialCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "git-credential",
        abstract: "git's credential helper: the access token of whoever this terminal chose, for their providers' git servers.",
        discussion: """
            git runs it (`switchboard setup-git` configures that) with get, store or erase and the request on \
            standard input. get answers username, password (a fresh access token) and password_expiry_utc when \
            the server belongs to a provider of the account active in this terminal (github.com to GitHub, a \
            GitLab's host, the demo provider's issuer, a provider's git_hosts). With two identities there (a work and \
            a personal GitHub), the one whose login git names (LOGIN@ in the URL, or credential.username) answers, \
            else the first, and a line says so; for any other server, or with \
            nobody chosen, it answers nothing and git goes on to its next helper. store changes nothing; erase \
            of a token git saw refused makes the next get refresh first. A request line over 64 KiB or holding \
            a NUL is refused.
            """)

    @OptionGroup var options: CommonOptions

    @Argument(help: "get, store or erase (others are ignored, as git's helpers do).")
    var operation: String

    /// The least time a token handed to git is still valid.
    static let minValid: Double = 60

    func run(io: CommandIO) async throws {
        // Read first, whatever follows: git waits for its request to be read.
        var reader = GitCredentialReader()
        reading: while let line = io.stdin.readLineBytes(limit: GitCredentialReader.lineLimit) {
            switch reader.take(line.bytes, truncated: line.truncated) {
            case .more: continue
            case .done: break reading
            case .refused(let refusal): throw io.fail(refusal.description, .usage)
            }
        }
        guard operation == "get" || operation == "erase", let server = GitServers.server(of: reader.request) else { return }
        let context = try TokenContext(CommandContext(options, io: io))
        let serving = GitServers.providers(serving: server, among: context.configuration.providers)
        guard !serving.isEmpty else { return }
        guard let account = try context.account(nil, providers: serving, quiet: true) else {
            return io.stderr.write("switchboard: \(context.nobodyChosen(for: "git (\(server))"))\n")
        }
        let username = reader.request.username
        guard let pick = IdentityChoice.forTool(serving: serving, among: account.identities, username: username) else { return }
        let linked = pick.chosen, others = pick.others
        let namedByGit = username != nil && linked.login?.lowercased() == username?.lowercased()
        if operation == "get", !others.isEmpty, !namedByGit {
            // Two of the person's identities could answer: say which did, and how to have the other.
            let names = ([linked] + others).map { IdentityChoice.shortName(of: $0, among: account.identities).displaySafe }
            io.stderr.write(
                "switchboard: \(account.name.displaySafe) has \(names.count) identities for git (\(server)): \(names.joined(separator: ", ")); "
                    + "\(names[0])'s token is given. For another, put its login in the remote's URL (https://LOGIN@host/…) "
                    + "or set git config credential.username LOGIN\n")
        }
        if operation == "erase" {
            // git saw this token refused: the next one handed out is refreshed first.
            // Whichever identity there it was: git names the username the answer gave (oauth2 for GitLab), not the login.
            if let password = reader.request.password {
                do {
                    for identity in [linked] + others where try context.tokens.forget(rejected: password, of: identity.identity) { break }
                } catch { throw context.reported(error) }
            }
            return
        }
        let fresh = try await context.freshToken(linked.identity, minValid: Self.minValid)
        let answer = GitCredentialAnswer(
            username: GitCredentialAnswer.username(kind: context.kind(of: linked.provider), login: linked.login), password: fresh.tokens.accessToken,
            expiresAt: fresh.tokens.expiresAt.map { Int64($0.secondsSince1970.rounded(.down)) })
        if let text = answer.text { io.stdout.write(text) }
    }
}
