import GRDB
import SwitchboardCore

/// `PRAGMA application_id` of a Switchboard database ("SWBD").
let switchboardApplicationID = StoreSchema.applicationID

/// The migrations, named by `StoreSchema.migrations`, oldest first.
var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration(StoreSchema.migrations[0]) { db in
        try db.execute(sql: "PRAGMA application_id = \(switchboardApplicationID)")
        try db.create(table: "account") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
            t.column("createdAt", .datetime).notNull()
            t.column("lastUsedAt", .datetime)
            t.column("useCount", .integer).notNull().defaults(to: 0)
        }
        try db.create(table: "identity") { t in
            t.column("provider", .text).notNull()
            t.column("subject", .text).notNull()
            t.primaryKey(["provider", "subject"])
            t.belongsTo("account", onDelete: .cascade).notNull()
            t.column("displayName", .text)
            t.column("email", .text)
            t.column("emailVerified", .boolean).notNull().defaults(to: false)
            t.column("state", .text).notNull()
            t.column("linkedAt", .datetime).notNull()
            t.column("checkedAt", .datetime)
        }
        try db.create(index: "identity_on_verified_email", on: "identity", expressions: [SQL("email COLLATE NOCASE").sqlExpression], condition: Column("emailVerified"))
        // Written by the device-flow code; keyed by identity, gone with it.
        try db.create(table: "credential") { t in
            t.column("provider", .text).notNull()
            t.column("subject", .text).notNull()
            t.primaryKey(["provider", "subject"])
            t.foreignKey(["provider", "subject"], references: "identity", onDelete: .cascade, onUpdate: .cascade)
            t.column("accessToken", .text)
            t.column("refreshToken", .text)
            t.column("idToken", .text)
            t.column("tokenType", .text)
            t.column("scope", .text)
            t.column("expiresAt", .datetime)
            t.column("updatedAt", .datetime).notNull()
        }
        // key "*" is the machine-wide default; accountId NULL is anonymous.
        try db.create(table: "session") { t in
            t.primaryKey("key", .text)
            t.belongsTo("account", onDelete: .setNull)
            t.column("updatedAt", .datetime).notNull()
        }
        try db.create(table: "favourite") { t in
            t.belongsTo("account", onDelete: .cascade).notNull()
            t.column("showId", .text).notNull()
            t.primaryKey(["accountId", "showId"])
            t.column("createdAt", .datetime).notNull()
        }
        try db.create(table: "providerData") { t in
            t.column("provider", .text).notNull()
            t.column("subject", .text).notNull()
            t.column("key", .text).notNull()
            t.primaryKey(["provider", "subject", "key"])
            t.foreignKey(["provider", "subject"], references: "identity", onDelete: .cascade, onUpdate: .cascade)
            t.column("value", .blob)
            t.column("fetchedAt", .datetime).notNull()
        }
        try db.create(table: "event") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("at", .datetime).notNull()
            t.column("session", .text)
            t.column("kind", .text).notNull()
            t.column("accountId", .integer)
            t.column("detail", .text).notNull().defaults(to: "{}")
        }
        try db.execute(sql: """
            CREATE TRIGGER event_is_append_only_update BEFORE UPDATE ON event
            BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
            CREATE TRIGGER event_is_append_only_delete BEFORE DELETE ON event
            BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
            """)
    }
    // The chooser lists the first accounts in this order; with the index,
    // reading them no longer sorts the whole table.
    migrator.registerMigration(StoreSchema.migrations[1]) { db in
        try db.execute(sql: "CREATE INDEX account_in_listed_order ON account(lastUsedAt DESC, useCount DESC, id)")
    }
    // Two issuers on one host are two providers (see `IssuerRekeying`).
    migrator.registerMigration(StoreSchema.migrations[2]) { db in
        try IssuerRekeying.migrate(db)
    }
    // PINs: a salted slow hash with its parameters, never the digits, and
    // the wrong tries counted beside it so a restart does not forget them.
    // `owner` is "operator" or "account:ID"; an account's row goes with it.
    migrator.registerMigration(StoreSchema.migrations[3]) { db in
        try db.create(table: "pin") { t in
            t.primaryKey("owner", .text)
            t.belongsTo("account", onDelete: .cascade)
            t.column("algorithm", .text).notNull()
            t.column("rounds", .integer).notNull()
            t.column("salt", .blob).notNull()
            t.column("hash", .blob).notNull()
            t.column("setAt", .datetime).notNull()
            t.column("failures", .integer).notNull().defaults(to: 0)
            t.column("lastFailureAt", .datetime)
        }
    }
    // A terminal's session lives as long as the terminal: the lifetime of
    // the terminal that made the choice (`TerminalIdentity.lifetime`); NULL
    // for a named session and the machine default.
    migrator.registerMigration(StoreSchema.migrations[4]) { db in
        try db.alter(table: "session") { t in t.add(column: "lifetime", .text) }
    }
    // A big roster: `switch NAME` finds the account through an index, and a
    // station lists it by name through one. The keys are the name and
    // email lower-cased (`AccountOrder.nameKey`, `emailKey`), kept beside
    // them by every write. The log stays append-only but for pruning
    // (`[store] keep_events`), which may delete only its oldest event, one
    // row at a time, oldest first.
    migrator.registerMigration(StoreSchema.migrations[5]) { db in
        try db.alter(table: "account") { t in t.add(column: "nameKey", .text).notNull().defaults(to: "") }
        try db.alter(table: "identity") { t in t.add(column: "emailKey", .text) }
        var names: [(Int64, String)] = []
        let accounts = try Row.fetchCursor(db, sql: "SELECT id, name FROM account")
        while let row = try accounts.next() { names.append((row[0], row[1])) }
        for (id, name) in names {
            try db.execute(sql: "UPDATE account SET nameKey = ? WHERE id = ?", arguments: [AccountOrder.nameKey(name), id])
        }
        var emails: [(String, String, String)] = []
        let identities = try Row.fetchCursor(db, sql: "SELECT provider, subject, email FROM identity WHERE email IS NOT NULL")
        while let row = try identities.next() { emails.append((row[0], row[1], row[2])) }
        for (provider, subject, email) in emails {
            try db.execute(
                sql: "UPDATE identity SET emailKey = ? WHERE provider = ? AND subject = ?",
                arguments: [AccountOrder.emailKey(email), provider, subject])
        }
        // The listing's indexes hold the name too: a page of the list, or the
        // whole of it as a stream, is read from the index alone, in order.
        try db.execute(sql: """
            DROP INDEX account_in_listed_order;
            CREATE INDEX account_listed ON account(lastUsedAt DESC, useCount DESC, id, name);
            CREATE INDEX account_by_name ON account(nameKey, id, name);
            CREATE INDEX identity_by_email ON identity(emailKey);
            DROP TRIGGER event_is_append_only_delete;
            CREATE TRIGGER event_is_pruned_oldest_first BEFORE DELETE ON event
            WHEN EXISTS (SELECT 1 FROM event WHERE id < OLD.id)
            BEGIN SELECT RAISE(ABORT, 'the event log is append-only: only its oldest events are pruned'); END;
            """)
    }
    // The name a person signs in to the provider with (GitHub's login), for
    // git's username; NULL where the provider did not say.
    migrator.registerMigration(StoreSchema.migrations[6]) { db in
        try db.alter(table: "identity") { t in t.add(column: "login", .text) }
    }
    // A running station's own row: what runs where, since when, its last
    // key to the minute and its heartbeat (`Stations.swift`).
    migrator.registerMigration(StoreSchema.migrations[7]) { db in
        try db.create(table: "station") { t in
            t.column("station", .text).notNull()
            t.column("terminal", .text).notNull()
            t.primaryKey(["station", "terminal"])
            t.column("session", .text).notNull()
            t.column("version", .text).notNull()
            t.column("startedAt", .datetime).notNull()
            t.column("lastKeyAt", .datetime)
            t.column("heartbeatAt", .datetime).notNull()
            t.column("heartbeatSeconds", .integer).notNull()
            t.column("handOffRunning", .boolean).notNull().defaults(to: false)
            t.column("stoppedAt", .datetime)
        }
        // A session's newest events (the fleet's lock-outs, `log --station`) through an index.
        try db.execute(sql: "CREATE INDEX event_by_session ON event(session, id)")
    }
    // Every account with its identities as one statement read from indexes
    // alone, in order, with nothing sorted (`AccountPageSQL.stream`): the
    // identities by account, in link order, holding every column a listing
    // shows. It serves what the index by account alone served.
    migrator.registerMigration(StoreSchema.migrations[8]) { db in
        try db.execute(sql: StoreSchema.identityByAccountSQL)
        try db.execute(sql: "DROP INDEX identity_on_accountId")
    }
    // A file has one owner, whose processes all may prune: nothing to do
    // here (on a shared store, triggers keep both to the owner).
    migrator.registerMigration(StoreSchema.migrations[9]) { _ in }
    // One machine has one station and no roles: only the column where a
    // shared store's server writes whose connection appended each event.
    migrator.registerMigration(StoreSchema.migrations[10]) { db in
        try db.execute(sql: "ALTER TABLE event ADD COLUMN origin TEXT")
    }
    // A file's PINs are tried by the store's rules in the process that holds the file.
    migrator.registerMigration(StoreSchema.migrations[11]) { _ in }
    migrator.registerMigration(StoreSchema.migrations[12]) { db in
        try db.execute(sql: StoreSchema.eventNamesSQL)
    }
    // A file is its owner's own: its tokens are kept as the file's mode keeps them.
    migrator.registerMigration(StoreSchema.migrations[13]) { _ in }
    // A file's PINs are tried by the store's rules in the process holding the file, which nobody else can roll back.
    migrator.registerMigration(StoreSchema.migrations[14]) { _ in }
    // Roles are a shared store's: a file has its one owner.
    migrator.registerMigration(StoreSchema.migrations[15]) { _ in }
    migrator.registerMigration(StoreSchema.migrations[16]) { db in
        try db.execute(sql: StoreSchema.stationInstanceSQL)
    }
    // Roles are a shared store's.
    migrator.registerMigration(StoreSchema.migrations[17]) { _ in }
    migrator.registerMigration(StoreSchema.migrations[18]) { db in
        try db.execute(sql: StoreSchema.stationClockSQL)
    }
    return migrator
}
