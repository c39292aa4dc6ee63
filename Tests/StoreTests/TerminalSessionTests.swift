import Foundation
import Glibc
import GRDB
import Testing
import TestBasics
import TestSupport
@testable import Store
@testable import SwitchboardCore

/// A terminal's session lives as long as the terminal.
@Suite("Sessions bound to their terminal's lifetime", .onOwnThreads)
struct TerminalSessionTests {
    /// A lifetime led by this test process itself: open while the test runs,
    /// wherever the test runs (its own session's leader may be gone, or in
    /// another process namespace, as under a CI runner).
    private var open: String { TerminalIdentity.lifetime(leader: getpid())! }

    /// A lifetime of this machine and boot whose leader is gone (a start time no process has).
    private var closed: String {
        let parts = open.split(separator: "/")
        return "\(parts[0])/\(parts[1])/\(parts[2])/\(UInt64(parts[3])! + 12_345)"
    }

    private func terminal(_ name: String, _ lifetime: String) -> SessionKey {
        SessionKey(terminal: TerminalIdentity(name: name, lifetime: lifetime))!
    }

    @Test("a new terminal that gets a closed terminal's name starts Anonymous; the name people see stays the same", arguments: Engine.allCases)
    func reusedName(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ada = try Sample.signIn([Sample.adaGitHub], into: db, session: terminal("pts/0", closed))[0]
        #expect(try db.active(in: terminal("pts/0", closed)).id == ada)
        let next = terminal("pts/0", open)
        #expect(try db.active(in: next) == .anonymous)
        #expect(next.description == "pts/0")
        // Named from elsewhere (`--session pts/0`): a terminal's session is not reachable by its name;
        // on a fleet's shared store an operator reads it (`--session lab-3/pts/0`).
        #expect(try db.active(in: SessionKey("pts/0")!).id == (engine == .postgres ? ada : nil))
    }

    @Test("a session named from elsewhere never reads or changes a terminal's own; a named session is not inherited by a terminal of that name", arguments: Engine.allCases)
    func namedAndTerminalApart(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: SessionKey("setup")!)
        _ = try db.switchAccount(to: ids[0], session: terminal("pts/3", open))
        let before = try fixture.dump()
        #expect(throws: StoreError.terminalSession("pts/3")) { try db.switchAccount(to: ids[1], session: SessionKey("pts/3")!) }
        if engine == .sqlite {
            #expect(try db.active(in: SessionKey("pts/3")!) == .anonymous)
            #expect(throws: StoreError.terminalSession("pts/3")) { try db.signOut(session: SessionKey("pts/3")!) }
        }
        #expect(try fixture.dump() == before)
        #expect(try db.active(in: terminal("pts/3", open)).id == ids[0])
        if engine == .postgres {
            // A fleet's operator reads a station's terminal by its name, and signs it out; the row stays the terminal's.
            #expect(try db.active(in: SessionKey("pts/3")!).id == ids[0])
            _ = try db.signOut(session: SessionKey("pts/3")!)
            #expect(try db.active(in: terminal("pts/3", open)) == .anonymous)
            #expect(try fixture.rows("SELECT lifetime FROM session WHERE key = 'pts/3'") == [[open]])
            _ = try db.switchAccount(to: ids[0], session: terminal("pts/3", open))
        }
        // A session named pts/4 (no terminal chose it): a terminal that later gets that name starts Anonymous.
        _ = try db.switchAccount(to: ids[1], session: SessionKey("pts/4")!)
        #expect(try db.active(in: terminal("pts/4", open)) == .anonymous)
        // The terminal's first choice makes the row its own; the name from elsewhere then reads
        // nothing (but an operator's on a shared store).
        _ = try db.switchAccount(to: ids[0], session: terminal("pts/4", open))
        #expect(try db.active(in: SessionKey("pts/4")!).id == (engine == .postgres ? ids[0] : nil))
    }

    @Test("the change feed reports a terminal's choice to whoever follows that session", arguments: Engine.allCases)
    func feedSeesTerminalChoices(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ada = try Sample.signIn([Sample.adaGitHub], into: db, session: SessionKey("setup")!)[0]
        let reader = try ChangeReader(try fixture.reopen())
        _ = try db.switchAccount(to: ada, session: terminal("pts/5", open))
        let changes = try reader.changes()
        let statuses = changes.compactMap { if case .status(let change) = $0 { change } else { nil } }
        #expect(statuses.map(\.session.rawValue) == ["pts/5"] && statuses.first?.current.id == ada, "\(changes)")
    }

    @Test("the first choice a new terminal makes forgets closed terminals' sessions and logs each as ended; open ones and named ones stay", arguments: Engine.allCases)
    func closedAreForgotten(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: SessionKey("setup")!)
        _ = try db.switchAccount(to: ids[0], session: terminal("pts/0", closed))
        _ = try db.switchAccount(to: ids[0], session: terminal("pts/1", open))
        _ = try db.switchAccount(to: ids[1], session: SessionKey("lab")!)
        // Another machine's terminal (a shared store) is not judged from here.
        let foreign = "another-host/boot/1/1"
        _ = try db.switchAccount(to: ids[1], session: terminal("pts/7", foreign))
        _ = try db.switchAccount(to: ids[1], session: terminal("pts/2", open))
        let rows = try fixture.rows("SELECT key FROM session ORDER BY key").map { $0[0] }
        #expect(rows == ["lab", "pts/1", "pts/2", "pts/7", "setup"])
        let ended = try fixture.rows("SELECT session, accountId FROM event WHERE kind = 'ended' ORDER BY id")
        #expect(ended == [["pts/0", "\(ids[0])"]])
    }

    @Test("once a terminal has closed, its name may be used as a named session", arguments: Engine.allCases)
    func closedNameIsFree(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: db, session: SessionKey("setup")!)
        _ = try db.switchAccount(to: ids[0], session: terminal("pts/3", closed))
        _ = try db.switchAccount(to: ids[1], session: SessionKey("pts/3")!)
        #expect(try db.active(in: SessionKey("pts/3")!).id == ids[1])
        #expect(try db.active(in: terminal("pts/3", open)) == .anonymous)
    }

    @Test("a named session is stable: a station's history and its last person survive a restart", arguments: Engine.allCases)
    func namedIsStable(_ engine: Engine) throws {
        let fixture = try Fixture(engine), db = fixture.database
        let station = SessionKey("lab-3")!
        let ada = try Sample.signIn([Sample.adaGitHub], into: db, session: station)[0]
        _ = try db.signOut(session: station)
        let reopened = try fixture.reopen()
        #expect(try reopened.lastActiveAccount(in: SessionKey("lab-3")!) == ada)
        _ = try reopened.switchAccount(to: ada, session: station)
        #expect(try reopened.active(in: SessionKey("lab-3")!).id == ada)
    }
}
