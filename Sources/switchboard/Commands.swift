import ArgumentParser
import Store
import SwitchboardCore

struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "List accounts, most recently used first; ● marks the active one.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let session = try options.sessionKey()
        try reportingErrors { () throws(StoreError) in
            let database = try options.openDatabase()
            let accounts = try database.accounts()
            let active = try database.active(in: session).id
            if options.json { return printJSON(accounts.map { AccountJSON($0, active: $0.id == active) }) }
            if accounts.isEmpty { return print("No accounts yet. Sign in to add one.") }
            for account in accounts {
                print("\(account.id == active ? "●" : " ") \(account.id)\t\(describe(account))")
            }
        }
    }
}

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show who this session acts as.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let session = try options.sessionKey()
        try reportingErrors { () throws(StoreError) in
            let active = try options.openDatabase().active(in: session)
            options.json ? printJSON(StatusJSON(session: session, active: active)) : print(describe(active, in: session))
        }
    }
}

struct SwitchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switch", abstract: "Make an account active in this session.")

    @OptionGroup var options: CommonOptions

    @Argument(help: "An account id, a name or email, or an identity as provider:subject.")
    var account: String

    func run() async throws {
        let session = try options.sessionKey()
        try reportingErrors { () throws(StoreError) in
            let database = try options.openDatabase()
            let target = try database.findAccount(account)
            let change = try database.switchAccount(to: target.id, session: session)
            options.json
                ? printJSON(StatusJSON(session: session, active: change.current))
                : print("Switched to \(describe(change.current, in: session))")
        }
    }
}

struct SignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-out", abstract: "Act as nobody in this session; identities stay available.")

    @OptionGroup var options: CommonOptions

    func run() async throws {
        let session = try options.sessionKey()
        try reportingErrors { () throws(StoreError) in
            let change = try options.openDatabase().signOut(session: session)
            if options.json { return printJSON(StatusJSON(session: session, active: change.current)) }
            switch change.previous {
            case .anonymous: print("Already anonymous in session \(session).")
            case .account(let account): print("Signed \(account.name.displaySafe) out of session \(session).")
            }
        }
    }
}

struct DisconnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disconnect",
        abstract: "Forget an identity and the data fetched with it; an account left with none is deleted.")

    @OptionGroup var options: CommonOptions

    @Argument(help: "The identity as provider:subject, or a provider the active account has one identity at.")
    var identity: String

    func run() async throws {
        let session = try options.sessionKey()
        try reportingErrors { () throws(StoreError) in
            let database = try options.openDatabase()
            let target = try resolveIdentity(in: database, session: session)
            let result = try database.disconnect(target, session: session)
            if options.json {
                return printJSON(DisconnectJSON(
                    disconnected: target.description, accountRemoved: result.accountRemoved,
                    status: StatusJSON(session: session, active: result.change.current)))
            }
            print("Disconnected \(target.description.displaySafe)"
                  + (result.accountRemoved ? "; it was its account's last identity, so the account was deleted." : "."))
        }
    }

    private func resolveIdentity(in database: AppDatabase, session: SessionKey) throws(StoreError) -> Identity {
        if let parsed = Identity(parsing: identity) { return parsed }
        let candidates = try database.active(in: session).account?.identities.filter { $0.provider.rawValue == identity } ?? []
        guard candidates.count == 1 else { throw .identityNotFound(identity) }
        return candidates[0].identity
    }
}

/// `disconnect --json`: the identity gone, and who the session acts as now.
struct DisconnectJSON: Encodable {
    let disconnected: String
    let accountRemoved: Bool
    let status: StatusJSON
}
