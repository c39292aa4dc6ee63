import Foundation
import GRDB
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

/// An unsigned id_token whose payload says `iss`: all the migration reads.
private func idToken(iss: String) -> String {
    let payload = try! JSONSerialization.data(withJSONObject: ["iss": iss, "sub": "x"])
    let encoded = payload.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
    return "eyJhbGciOiJub25lIn0.\(encoded).sig"
}

@Suite("v3: identities keyed by an issuer's host move to the whole issuer, or are retired", .onOwnThreads)
struct IssuerRekeyingTests {
    @Test("an id_token naming an issuer on the same host moves the identity with its tokens and data; others are marked revoked and lose their tokens")
    func migrates() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("switchboard.sqlite")
        let old = try DatabaseQueue(path: path)
        try migrator.migrate(old, upTo: StoreSchema.migrations[1])
        try old.write { db in
            try db.execute(sql: "INSERT INTO account (id, name, createdAt, useCount) VALUES (1, 'Ada', 0, 1), (2, 'Grace', 0, 1)")
            let rows: [(String, String, Int, String?)] = [
                ("login.example.com", "s1", 1, idToken(iss: "https://Login.Example.com:8443/t/")),
                ("login.example.com", "s2", 1, nil),
                ("other.example", "s3", 2, idToken(iss: "https://evil.example")),
                ("github", "583231", 2, idToken(iss: "https://github.com")),
            ]
            for (provider, subject, account, token) in rows {
                try db.execute(sql: "INSERT INTO identity (provider, subject, accountId, state, linkedAt) VALUES (?, ?, ?, 'authorized', 0)",
                               arguments: [provider, subject, account])
                try db.execute(sql: "INSERT INTO credential (provider, subject, accessToken, idToken, updatedAt) VALUES (?, ?, 'at', ?, 0)",
                               arguments: [provider, subject, token])
                try db.execute(sql: "INSERT INTO providerData (provider, subject, key, fetchedAt) VALUES (?, ?, 'profile', 0)",
                               arguments: [provider, subject])
            }
        }
        try old.close()

        let database = try AppDatabase(testing: path)
        let identities = try database.accounts().flatMap(\.identities)
        let states = Dictionary(uniqueKeysWithValues: identities.map { ($0.identity.description, $0.state) })
        #expect(states == [
            "https://login.example.com:8443/t:s1": .authorized, "login.example.com:s2": .revoked,
            "other.example:s3": .revoked, "github:583231": .authorized,
        ])
        #expect(try database.credential(for: Identity(provider: "https://login.example.com:8443/t", subject: "s1"))?.accessToken == "at")
        #expect(try database.credential(for: Identity(provider: "login.example.com", subject: "s2")) == nil)
        #expect(try database.credential(for: Identity(provider: "other.example", subject: "s3")) == nil)
        #expect(try database.credential(for: Identity(provider: "github", subject: "583231"))?.accessToken == "at")
        let data = try database.writer.read { try String.fetchAll($0, sql: "SELECT provider || ':' || subject FROM providerData ORDER BY 1") }
        #expect(data == ["github:583231", "https://login.example.com:8443/t:s1"])
        let orphans = try database.writer.read { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check") }
        #expect(orphans.isEmpty)
    }
}
