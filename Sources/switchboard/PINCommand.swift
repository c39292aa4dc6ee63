import ArgumentParser
import Foundation
import Store
import SwitchboardCore

/// `switchboard pin`: a profile's PIN, asked for before switching to it, and
/// the operator PIN, which stands in for any profile's.
struct PINCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Set, clear or reset the PIN that guards switching to an account, and the operator PIN.",
        discussion: """
            A PIN is 4 to 12 digits. It is read from the terminal without echo (twice when set), or, when \
            standard input is not a terminal, one line each from it: first the current PIN when one is needed, \
            then the new one. Never from the command line.
            Replacing or clearing a profile's PIN takes its current PIN or the operator PIN; the operator PIN \
            takes itself. After 5 wrong PINs each further try waits twice as long as the last (30 s, 60 s, ..., \
            at most a day); a right PIN clears the count, and `pin reset` clears a profile's with the operator PIN.
            """,
        subcommands: [PINSetCommand.self, PINClearCommand.self, PINResetCommand.self]
    )
}

/// Which PIN a `pin` subcommand is about.
struct PINTarget: ParsableArguments {
    @Argument(help: "The account, as `switch` takes it (default: the active account).")
    var account: String?

    @Flag(name: .customLong("operator"), help: "The operator PIN instead of an account's.")
    var isOperator = false

    func validate() throws {
        if isOperator && account != nil { throw ValidationError("give an account or --operator, not both") }
    }

    /// The owner, and how to name it to a person.
    func resolve(_ database: AppDatabase, session: SessionKey) throws(StoreError) -> (PINOwner, String) {
        if isOperator { return (.operatorPIN, "the operator") }
        if let account {
            let found = try database.findAccount(account)
            return (.account(found.id), found.name.displaySafe)
        }
        guard let active = try database.active(in: session).account else {
            throw StoreError.accountNotFound("the active account (session \(session) is anonymous; name an account)")
        }
        return (.account(active.id), active.name.displaySafe)
    }
}

/// `pin set --json` and `pin clear --json`: `{"owner": "account:ID" | "operator", "pin": "set" | "cleared" | "none"}`.
struct PINJSON: Encodable {
    let owner: String
    let pin: String

    init(_ owner: PINOwner, _ pin: String) {
        switch owner {
        case .account(let id): self.owner = "account:\(id)"
        case .operatorPIN: self.owner = "operator"
        }
        self.pin = pin
    }
}

/// Asks for the PIN that allows the change, when one is set.
private func proof(for owner: PINOwner, in database: AppDatabase, io: CommandIO) throws -> String? {
    guard try database.hasPIN(owner) else { return nil }
    let prompt = owner == .operatorPIN ? "Current operator PIN: " : "Current PIN (or the operator PIN): "
    return try PINInput.read(prompt: prompt, field: "current PIN", io: io)
}

struct PINSetCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(commandName: "set", abstract: "Set or replace a PIN.")

    @OptionGroup var options: CommonOptions
    @OptionGroup var target: PINTarget

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let session = try context.sessionKey()
        try io.reportingErrors {
            let database = try context.openDatabase()
            let (owner, name) = try target.resolve(database, session: session)
            let current = try proof(for: owner, in: database, io: io)
            let pin = try PINInput.read(prompt: "New PIN for \(name): ", field: "new PIN", io: io)
            try AppDatabase.checkPINFormat(pin, field: "new PIN")
            if io.stdinIsTerminal, try PINInput.read(prompt: "The new PIN again: ", field: "new PIN (again)", io: io) != pin {
                throw io.fail("new PIN (again): the two PINs differ; nothing was changed", .usage)
            }
            try database.setPIN(pin, for: owner, proof: current)
            options.json ? io.printJSON(PINJSON(owner, "set")) : io.print("PIN set for \(name).")
        }
    }
}

struct PINClearCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove a PIN.")

    @OptionGroup var options: CommonOptions
    @OptionGroup var target: PINTarget

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let session = try context.sessionKey()
        try io.reportingErrors {
            let database = try context.openDatabase()
            let (owner, name) = try target.resolve(database, session: session)
            guard try database.hasPIN(owner) else {
                return options.json ? io.printJSON(PINJSON(owner, "none")) : io.print("\(name) has no PIN.")
            }
            try database.setPIN(nil, for: owner, proof: try proof(for: owner, in: database, io: io))
            options.json ? io.printJSON(PINJSON(owner, "cleared")) : io.print("PIN cleared for \(name).")
        }
    }
}

struct PINResetCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Clear an account's count of wrong PINs (asks for the operator PIN); --operator clears the operator PIN's.",
        discussion: """
            With --operator, the operator PIN's own count of wrong tries is cleared without it: the way back when it is \
            locked out. On a shared store only the owner of the store's tables may do that.
            """)

    @OptionGroup var options: CommonOptions

    @Argument(help: "The account, as `switch` takes it.")
    var account: String?

    @Flag(name: .customLong("operator"), help: "Clear the operator PIN's count of wrong tries (the store's owner; no PIN asked).")
    var operatorPIN = false

    func validate() throws {
        if operatorPIN == (account != nil) { throw ValidationError("give an account, or --operator") }
    }

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        try io.reportingErrors {
            let database = try context.openDatabase()
            guard let account else {
                try database.clearOperatorLockout(session: try? context.sessionKey())
                return options.json ? io.printJSON(PINJSON(.operatorPIN, "reset")) : io.print("Wrong tries cleared for the operator PIN.")
            }
            let found = try database.findAccount(account)
            guard try database.hasPIN(.operatorPIN) else {
                throw io.fail("clearing \(found.name.displaySafe)'s wrong tries takes the operator PIN, and none is set: set one with "
                    + "`switchboard pin set --operator`, or wait out the lockout", .conflict)
            }
            let pin = try PINInput.read(prompt: "Operator PIN: ", field: "operator PIN", io: io)
            // Logged in this terminal's session, as the board's reset is in the operator's.
            try database.resetPINAttempts(of: found.id, operatorPIN: pin, byOperatorAt: try? context.sessionKey())
            options.json ? io.printJSON(PINJSON(.account(found.id), "reset")) : io.print("Wrong tries cleared for \(found.name.displaySafe).")
        }
    }
}
