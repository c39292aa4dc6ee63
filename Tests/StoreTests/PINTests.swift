import Foundation
import GRDB
@testable import PINHash
import Testing
import TestBasics
import TestSupport
@testable import Store
import SwitchboardCore

/// Few rounds, so the tests stay fast.
private let testRounds = testPINRounds

@Suite("PIN hashing", .onOwnThreads)
struct PINHashTests {
    @Test("a stored PIN matches itself only; salts differ; the digits are nowhere in it")
    func hashAndVerify() throws {
        let one = StoredPIN(hashing: "4711", rounds: testRounds), two = StoredPIN(hashing: "4711", rounds: testRounds)
        #expect(one.matches("4711"))
        #expect(!one.matches("4712") && !one.matches("47110") && !one.matches(""))
        #expect(one.salt.count == 16 && one.hash.count == 32)
        #expect(one.salt != two.salt && one.hash != two.hash)
        #expect(one.algorithm == "pbkdf2-sha256" && one.rounds == testRounds)
        #expect(!Data(one.hash).contains(Data("4711".utf8)))
    }

    @Test("new PINs get 600,000 rounds; weaker or unknown parameters are noted, an unknown algorithm never matches")
    func parameters() {
        let strong = StoredPIN(hashing: "123456")
        #expect(strong.rounds >= 600_000 && !strong.needsRehash() && strong.matches("123456"))
        #expect(StoredPIN(hashing: "1234", rounds: testRounds).needsRehash())
        let foreign = StoredPIN(algorithm: "md5", rounds: testRounds, salt: strong.salt, hash: strong.hash)
        #expect(!foreign.matches("123456") && foreign.needsRehash())
        // A row asking for more work than any PIN is stored with (written to keep a station busy) is not derived at all.
        let started = ContinuousClock.now
        let hostile = StoredPIN(algorithm: StoredPIN.currentAlgorithm, rounds: Int(Int32.max), salt: strong.salt, hash: strong.hash)
        #expect(!hostile.matches("123456"))
        #expect(StoredPIN.candidate("123456", algorithm: StoredPIN.currentAlgorithm, rounds: StoredPIN.maximumRounds + 1, salt: strong.salt) == nil)
        #expect(started.duration(to: .now) < .seconds(1), "refused before any derivation")
    }

    @Test("PBKDF2-HMAC-SHA256 agrees with RFC 7914's test vector")
    func knownAnswer() throws {
        // RFC 7914 section 11: P = "passwd", S = "salt", c = 1, dkLen = 64; first 32 bytes.
        let derived = try #require(StoredPIN.derive("passwd", salt: Array("salt".utf8), rounds: 1, algorithm: "pbkdf2-sha256"))
        #expect(derived.map { String(format: "%02x", $0) }.joined() == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
    }

    @Test("comparison is over every byte and needs equal lengths")
    func constantTime() {
        #expect(StoredPIN.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!StoredPIN.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!StoredPIN.constantTimeEqual([9, 2, 3], [1, 2, 3]))
        #expect(!StoredPIN.constantTimeEqual([1, 2], [1, 2, 3]))
    }

    @Test("four to twelve digits, and the error names the field", arguments: [
        ("", "new PIN: is empty"), ("123", "new PIN: must be 4 to 12 digits, not 3"),
        ("1234567890123", "new PIN: must be 4 to 12 digits, not 13"), ("12a4", "new PIN: must be digits only (0-9)"),
        ("１２３４", "new PIN: must be digits only (0-9)"), (" 1234", "new PIN: must be digits only (0-9)"),
    ])
    func format(_ text: String, _ message: String) {
        #expect(throws: PINFormatError.self) { try PIN.validate(text, field: "new PIN") }
        do { try PIN.validate(text, field: "new PIN") } catch { #expect(error.description == message) }
    }

    @Test("four and twelve digits are PINs")
    func formatAccepts() throws {
        try PIN.validate("0000", field: "PIN")
        try PIN.validate("123456789012", field: "PIN")
    }
}

@Suite("Wrong-PIN waits", .onOwnThreads)
struct LockoutTests {
    @Test("five free tries, then 30 s doubling each time, capped at a day")
    func schedule() {
        #expect((0...4).map { Lockout.wait(afterFailures: $0) } == [0, 0, 0, 0, 0])
        #expect((5...10).map { Lockout.wait(afterFailures: $0) } == [30, 60, 120, 240, 480, 960])
        #expect(Lockout.wait(afterFailures: 16) == 61_440)
        #expect(Lockout.wait(afterFailures: 17) == 86_400)
        #expect(Lockout.wait(afterFailures: Int.max) == 86_400)
    }

    @Test("on an injected clock: locked until the wait is over, then free")
    func clock() {
        let failed = Date(timeIntervalSince1970: 1_000_000)
        #expect(Lockout.lockedUntil(failures: 4, lastFailure: failed, now: failed) == nil)
        #expect(Lockout.lockedUntil(failures: 5, lastFailure: failed, now: failed.addingTimeInterval(29)) == failed.addingTimeInterval(30))
        #expect(Lockout.lockedUntil(failures: 5, lastFailure: failed, now: failed.addingTimeInterval(30)) == nil)
        #expect(Lockout.lockedUntil(failures: 7, lastFailure: failed, now: failed.addingTimeInterval(119)) == failed.addingTimeInterval(120))
        #expect(Lockout.lockedUntil(failures: 7, lastFailure: nil, now: failed) == nil)
    }
}

@Suite("PINs in the store", .onOwnThreads)
struct StorePINTests {
    private func twoAccounts(_ fixture: Fixture) throws -> (AccountID, AccountID) {
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: fixture.database, session: terminal1)
        _ = try fixture.database.signOut(session: terminal1)
        return (ids[0], ids[1])
    }

    @Test("a protected account is switched to only with its PIN; the hash, not the digits, is stored", arguments: Engine.allCases)
    func switchNeedsPIN(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let (ada, grace) = try twoAccounts(fixture)
        try db.setPIN("246813579024", for: .account(ada), proof: nil)
        #expect(try db.protectedAccounts() == [ada])
        #expect(throws: StoreError.pinRequired("Ada Lovelace's PIN (account \(ada))")) { try db.switchAccount(to: ada, session: terminal1) }
        #expect(throws: StoreError.wrongPIN("Ada Lovelace's PIN (account \(ada))", retryAt: nil)) {
            try db.switchAccount(to: ada, session: terminal1, pin: .account("1357"))
        }
        #expect(try db.active(in: terminal1) == .anonymous)
        #expect(try db.switchAccount(to: ada, session: terminal1, pin: .account("246813579024")).current.id == ada)
        #expect(try db.switchAccount(to: grace, session: terminal1).current.id == grace)
        // Twelve digits: a four-digit PIN turns up by chance in a random hash's hex about once in a thousand runs.
        let stored = try fixture.rows("SELECT * FROM pin").description
        #expect(!stored.contains("246813579024"))
    }

    @Test("on a shared store what a PIN typed derives to is worked out before the write's transaction, so no lock is held meanwhile")
    func derivedBeforeTheLock() throws {
        let fixture = try Fixture(.postgres), db = fixture.database
        let (ada, _) = try twoAccounts(fixture)
        try db.setPIN("2468", for: .account(ada), proof: nil)
        let known = try db.write(derivingPIN: "2468", for: { _ in [.account(ada)] }) { connection in
            let row = try #require(try PINRecord.fetch(.account(ada), db: connection))
            return (connection as? EventNotingConnection)?.derivations.candidate("2468", for: row)
        }
        let row = try #require(try db.read { try PINRecord.fetch(.account(ada), db: $0) })
        #expect(known == StoredPIN.candidate("2468", algorithm: row.algorithm, rounds: row.rounds, salt: Array(row.salt)) && known?.isEmpty == false)
        // Used: the switch with it goes through, and a wrong one is counted.
        #expect(try db.switchAccount(to: ada, session: terminal1, pin: .account("2468")).current.id == ada)
        #expect(throws: StoreError.self) { try db.switchAccount(to: ada, session: terminal2, pin: .account("1357")) }
        #expect(try db.pinAttempts(of: .account(ada)).failures == 1)
    }

    @Test("a switch with a PIN taken back once the PIN is derived changes nothing and counts nothing", arguments: Engine.allCases)
    func cancelledSwitch(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let (ada, _) = try twoAccounts(fixture)
        try db.setPIN("2468", for: .account(ada), proof: nil)
        let before = try fixture.dump()
        #expect(throws: StoreError.cancelled) { try db.switchAccount(to: ada, session: terminal1, pin: .account("2468"), unless: { true }) }
        #expect(throws: StoreError.cancelled) { try db.switchAccount(to: ada, session: terminal1, pin: .account("1357"), unless: { true }) }
        #expect(try fixture.dump() == before)
    }

    @Test("replacing or clearing takes the current PIN or the operator's; the operator PIN takes itself", arguments: Engine.allCases)
    func changeRules(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let (ada, _) = try twoAccounts(fixture)
        try db.setPIN("1111", for: .account(ada), proof: nil)
        #expect(throws: StoreError.pinRequired("Ada Lovelace's PIN (account \(ada))")) { try db.setPIN("2222", for: .account(ada), proof: nil) }
        #expect(throws: StoreError.wrongPIN("Ada Lovelace's PIN (account \(ada))", retryAt: nil)) {
            try db.setPIN("2222", for: .account(ada), proof: "9999")
        }
        try db.setPIN("2222", for: .account(ada), proof: "1111")
        try db.setPIN("7777", for: .operatorPIN, proof: nil)
        #expect(throws: StoreError.pinRequired("the operator PIN")) { try db.setPIN("8888", for: .operatorPIN, proof: nil) }
        #expect(throws: StoreError.wrongPIN("the operator PIN", retryAt: nil)) {
            try db.setPIN("8888", for: .operatorPIN, proof: "2222")
        }
        // The operator clears a forgotten profile PIN.
        try db.setPIN(nil, for: .account(ada), proof: "7777")
        #expect(try db.protectedAccounts() == [])
        #expect(try db.switchAccount(to: ada, session: terminal1).current.id == ada)
        #expect(throws: StoreError.badPIN("new PIN: must be 4 to 12 digits, not 3")) { try db.setPIN("123", for: .account(ada), proof: nil) }
    }

    @Test("wrong PINs are counted across a reopen, wait on the schedule, and a right one clears the count", arguments: Engine.allCases)
    func countingSurvivesRestart(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let (ada, _) = try twoAccounts(fixture)
        try fixture.database.setPIN("2468", for: .account(ada), proof: nil)
        let start = Date(timeIntervalSince1970: 2_000_000_000)
        for attempt in 1...4 {
            #expect(throws: StoreError.wrongPIN("Ada Lovelace's PIN (account \(ada))", retryAt: nil)) {
                try fixture.database.switchAccount(to: ada, session: terminal1, pin: .account("0000"), at: start.addingTimeInterval(Double(attempt)))
            }
        }
        // A restart: a new connection to the same file.
        let reopened = try fixture.reopen()
        #expect(try reopened.pinAttempts(of: .account(ada), at: start).failures == 4)
        let fifth = start.addingTimeInterval(10)
        #expect(throws: StoreError.wrongPIN("Ada Lovelace's PIN (account \(ada))", retryAt: fifth.addingTimeInterval(30))) {
            try reopened.switchAccount(to: ada, session: terminal1, pin: .account("0000"), at: fifth)
        }
        // Locked: even the right PIN is not looked at, and the try is not counted.
        #expect(throws: StoreError.pinLockedOut("Ada Lovelace's PIN (account \(ada))", until: fifth.addingTimeInterval(30))) {
            try fixture.reopen().switchAccount(to: ada, session: terminal1, pin: .account("2468"), at: fifth.addingTimeInterval(29))
        }
        #expect(try reopened.pinAttempts(of: .account(ada), at: fifth).failures == 5)
        // The sixth wrong one doubles the wait.
        let sixth = fifth.addingTimeInterval(30)
        #expect(throws: StoreError.wrongPIN("Ada Lovelace's PIN (account \(ada))", retryAt: sixth.addingTimeInterval(60))) {
            try reopened.switchAccount(to: ada, session: terminal1, pin: .account("0000"), at: sixth)
        }
        #expect(try reopened.pinAttempts(of: .account(ada), at: sixth.addingTimeInterval(59)).lockedUntil == sixth.addingTimeInterval(60))
        #expect(try reopened.switchAccount(to: ada, session: terminal1, pin: .account("2468"), at: sixth.addingTimeInterval(60)).current.id == ada)
        #expect(try fixture.reopen().pinAttempts(of: .account(ada)).failures == 0)
    }

    @Test("the operator PIN resets a profile's count; a wrong operator PIN is counted on the operator", arguments: Engine.allCases)
    func operatorReset(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let (ada, _) = try twoAccounts(fixture)
        try db.setPIN("2468", for: .account(ada), proof: nil)
        #expect(throws: StoreError.pinNotSet("the operator PIN")) { try db.resetPINAttempts(of: ada, operatorPIN: "1234") }
        try db.setPIN("9753", for: .operatorPIN, proof: nil)
        let now = Date(timeIntervalSince1970: 2_000_000_000)  // whole milliseconds, as the store keeps them
        for _ in 1...6 { _ = try? db.switchAccount(to: ada, session: terminal1, pin: .account("0000"), at: now) }
        #expect(try db.pinAttempts(of: .account(ada), at: now).lockedUntil != nil)
        #expect(throws: StoreError.wrongPIN("the operator PIN", retryAt: nil)) { try db.resetPINAttempts(of: ada, operatorPIN: "2468", at: now) }
        #expect(try db.pinAttempts(of: .operatorPIN, at: now).failures == 1)
        try db.resetPINAttempts(of: ada, operatorPIN: "9753", at: now)
        #expect(try db.pinAttempts(of: .account(ada), at: now) == (0, nil))
        #expect(try db.pinAttempts(of: .operatorPIN, at: now).failures == 0)
        #expect(try db.switchAccount(to: ada, session: terminal1, pin: .account("2468"), at: now).current.id == ada)
    }

    @Test("a wrong proof is counted on the profile and on the operator PIN; a locked profile still takes the operator's", arguments: Engine.allCases)
    func proofCounting(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let (ada, _) = try twoAccounts(fixture)
        try db.setPIN("2468", for: .account(ada), proof: nil)
        try db.setPIN("9753", for: .operatorPIN, proof: nil)
        let now = Date(timeIntervalSince1970: 2_000_000_000)  // whole milliseconds, as the store keeps them
        for _ in 1...5 { _ = try? db.setPIN("1111", for: .account(ada), proof: "0000", at: now) }
        #expect(try db.pinAttempts(of: .account(ada), at: now).failures == 5)
        #expect(try db.pinAttempts(of: .operatorPIN, at: now).failures == 5)
        try db.resetPINAttempts(of: ada, operatorPIN: "9753", at: now.addingTimeInterval(30))
        for _ in 1...5 { _ = try? db.switchAccount(to: ada, session: terminal1, pin: .account("0000"), at: now) }
        #expect(try db.pinAttempts(of: .account(ada), at: now).lockedUntil != nil)
        try db.setPIN("1111", for: .account(ada), proof: "9753", at: now)
        #expect(try db.pinAttempts(of: .account(ada), at: now) == (0, nil))
    }

    @Test("a PIN change is one logged transaction; a failure in it changes nothing", arguments: Engine.allCases)
    func atomic(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let (ada, _) = try twoAccounts(fixture)
        let events = try db.eventCount()
        try fixture.failNext("INSERT", on: "event")
        #expect(throws: StoreError.self) { try db.setPIN("2468", for: .account(ada), proof: nil) }
        try fixture.clearFailure()
        #expect(try db.protectedAccounts() == [] && db.eventCount() == events)
        try db.setPIN("2468", for: .account(ada), proof: nil)
        #expect(try db.eventCount() == events + 1)
    }

    @Test("a PIN stored with fewer rounds than the store's is stored again with its rounds when it is next given right", arguments: Engine.allCases)
    func rehash(_ engine: Engine) throws {
        let fixture = try Fixture(engine)
        let (ada, _) = try twoAccounts(fixture)
        try fixture.database.setPIN("2468", for: .account(ada), proof: nil)
        // The same store opened by a build with a raised work factor.
        let db = try AppDatabase(fixture.location, pinRounds: testRounds * 2)
        func stored() throws -> (rounds: Int, salt: Data) {
            try db.engine.read { db in
                try #require(try db.first("SELECT rounds, salt FROM pin WHERE owner = $1", ["account:\(ada)"]) { row in
                    (try row[0] as Int, try row[1] as Data)
                })
            }
        }
        let before = try stored()
        #expect(before.rounds == testRounds)
        _ = try? db.switchAccount(to: ada, session: terminal1, pin: .account("1111"))
        #expect(try stored() == before)
        _ = try db.switchAccount(to: ada, session: terminal1, pin: .account("2468"))
        let after = try stored()
        #expect(after.rounds == testRounds * 2 && after.salt != before.salt)
        _ = try db.signOut(session: terminal1)
        #expect(try db.switchAccount(to: ada, session: terminal1, pin: .account("2468")).current.id == ada)
    }

    @Test("an account's PIN goes with the account", arguments: Engine.allCases)
    func cascade(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let (ada, _) = try twoAccounts(fixture)
        try db.setPIN("2468", for: .account(ada), proof: nil)
        _ = try db.disconnect(Sample.adaGitHub.identity, session: terminal1, pin: .account("2468"))
        #expect(try db.protectedAccounts() == [])
        #expect(try fixture.count("SELECT count(*) FROM pin") == 0)
    }

    @Test("a conflict's switch to a protected account takes its PIN like any switch; merging it away, which would lose its PIN, is refused; nobody is switched", arguments: Engine.allCases)
    func conflictsRespectPINs(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        // Accounts at different providers, so that merging them would be allowed but for the PIN.
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceMicrosoft], into: db, session: terminal1)
        let (ada, grace) = (ids[0], ids[1])
        try db.setPIN("2468", for: .account(ada), proof: nil)
        // Grace links Ada's GitHub identity: it belongs to Ada's account, which has a PIN.
        guard case .conflict(let conflict, _) = try db.signIn(Sample.adaGitHub, mode: .link, session: terminal1) else {
            Issue.record("expected a conflict"); return
        }
        #expect(throws: StoreError.pinRequired("Ada Lovelace's PIN (account \(ada))")) {
            try db.resolve(conflict, choosing: .switchAccount, identity: Sample.adaGitHub, session: terminal1)
        }
        #expect(throws: StoreError.mergeOfProtected(PINOwner.account(ada).description)) {
            try db.resolve(conflict, choosing: .merge, identity: Sample.adaGitHub, session: terminal1)
        }
        #expect(try db.active(in: terminal1).id == grace)
        #expect(try db.accounts().count == 2 && db.protectedAccounts() == [ada])
        // Without the PIN the same choices go through.
        try db.setPIN(nil, for: .account(ada), proof: "2468")
        _ = try db.resolve(conflict, choosing: .switchAccount, identity: Sample.adaGitHub, session: terminal1)
        #expect(try db.active(in: terminal1).id == ada)
    }
}
