import ArgumentParser
import Configuration
import Foundation
import Store
import SwitchboardCore

/// `switchboard store`: moving a store to a fleet's server, and migrating one.
struct StoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Copy a store whole to another (a fleet's PostgreSQL server, say), migrate one, or prune its old events.",
        subcommands: [StoreCopyCommand.self, StoreMigrateCommand.self, StorePruneCommand.self])
}

struct StoreCopyCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy this store whole into an empty one (--to), or an other store whole into this empty one (--from).",
        discussion: """
            This store is the one every command uses (--store, --database, SWITCHBOARD_STORE, \
            SWITCHBOARD_DATABASE, [store] url, else the SQLite file). The other is a postgresql:// URL or a \
            SQLite file's path. Accounts, identities, tokens, sessions, favourites, provider data, PINs with \
            their counts of wrong tries, and events move with their ids, in one transaction, into a store \
            with no rows; the rows of each table are counted there before it commits. A URL here may not \
            carry a password: keep it in ~/.pgpass.
            """)

    @OptionGroup var options: CommonOptions

    @Option(name: .long, help: "The empty store to copy this one into: a postgresql:// URL or a file.")
    var to: String?

    @Option(name: .long, help: "The store to copy into this empty one: a postgresql:// URL or a file.")
    var from: String?

    func validate() throws {
        if (to == nil) == (from == nil) { throw ValidationError("give one of --to and --from") }
    }

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        try io.reportingErrors { () throws(StoreError) in
            let location = try Self.location(to ?? from ?? "", option: to != nil ? "--to" : "--from")
            let here = try context.openDatabase()
            if let warning = location.transportWarning { io.stderr.write("switchboard: warning: \(warning)\n") }
            let there = try AppDatabase(location, pinRounds: io.pinRounds)
            let (source, target) = to != nil ? (here, there) : (there, here)
            let report = try source.copy(to: target)
            if options.json { return io.printJSON(CopyJSON(from: source.path, to: target.path, report: report)) }
            io.print("Copied \(source.path.displaySafe) into \(target.path.displaySafe):")
            for (table, rows) in report.tables { io.print("  \(table)\t\(rows)") }
        }
    }

    /// A URL (with no password: arguments are for everyone to read) or a file's path.
    static func location(_ text: String, option: String) throws(StoreError) -> StoreLocation {
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") else { return .file(text) }
        if let problem = StoreSettings.urlProblem(text) { throw .badLocation("\(option): \(problem)") }
        if StoreSettings.carriesPassword(text) {
            throw .badLocation("\(option): the URL holds a password, which any user can read in the process list; keep it in "
                + "~/.pgpass (or the file PGPASSFILE or passfile= names) and give the URL without it")
        }
        return .server(text)
    }

    struct CopyJSON: Encodable {
        let from: String
        let to: String
        let tables: [String: Int]

        init(from: String, to: String, report: CopyReport) {
            self.from = from
            self.to = to
            tables = Dictionary(uniqueKeysWithValues: report.tables.map { ($0.table, $0.rows) })
        }
    }
}

struct StoreMigrateCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Bring this store's tables up to date, and say which migrations that took.",
        discussion: """
            Every command migrates the store it opens when it needs to; this one does only that, for an \
            operator to run once before the stations of a fleet are upgraded. On PostgreSQL the migrations run \
            in one transaction under an advisory lock, so stations starting meanwhile wait and find nothing to do.
            """)

    @OptionGroup var options: CommonOptions

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        try io.reportingErrors { () throws(StoreError) in
            let database = try context.openDatabase()
            let applied = database.migrationsApplied
            if options.json { return io.printJSON(MigrateJSON(store: database.path, applied: applied, known: AppDatabase.migrations)) }
            if applied.isEmpty {
                io.print("\(database.path.displaySafe) is up to date (\(AppDatabase.migrations.count) migrations).")
            } else {
                io.print("Migrated \(database.path.displaySafe):")
                for name in applied { io.print("  \(name)") }
            }
        }
    }

    struct MigrateJSON: Encodable {
        let store: String
        let applied: [String]
        let known: [String]
    }
}

/// `switchboard store prune`: the events older than `[store] keep_events`
/// go. A chooser does this by itself in the background; on a fleet's
/// server only the owner of the store's tables may delete events, so the
/// owner runs this (from cron, say).
struct StorePruneCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete the events older than [store] keep_events (400 days unless set), oldest first.",
        discussion: """
            On a fleet's PostgreSQL server only the owner of the store's tables may delete events (the \
            stations' role may not): run this as the owner, once a day. Elsewhere it prunes nothing.
            """)

    @OptionGroup var options: CommonOptions

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let keep = try context.configuration().store.eventsKept
        try io.reportingErrors { () throws(StoreError) in
            let database = try context.openDatabase()
            guard try database.mayPruneEvents() else {
                throw .unavailable(path: database.path, detail: "only the owner of the store's tables may delete events; "
                    + "run switchboard store prune as that role (see docs/FLEET.md)")
            }
            let cutoff = Date().addingTimeInterval(-Double(keep.components.seconds))
            var total = 0
            while true {
                let count = try database.pruneEvents(loggedBefore: cutoff)
                total += count
                if count < 500 { break }
            }
            if options.json { return io.printJSON(PruneJSON(store: database.path, deleted: total)) }
            io.print("Pruned \(total) event\(total == 1 ? "" : "s") from \(database.path.displaySafe).")
        }
    }

    struct PruneJSON: Encodable {
        let store: String
        let deleted: Int
    }
}
