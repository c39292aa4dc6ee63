import Foundation
import SwitchboardCore
import Testing

@Suite("The running process, read without Foundation")
struct RunningProcessTests {
    @Test("an environment block: split at the first '=', non-ASCII kept, the first of a repeated name wins, an entry without '=' skipped")
    func environmentBlock() {
        let entries = ["EQUALS=a=b==c", "TEXT=Grüße, 世界", "EMPTY=", "NOEQUALS", "TWICE=first", "TWICE=second"]
        let pointers: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        let parsed = pointers.withUnsafeBufferPointer { RunningProcess.environment(from: $0.baseAddress!) }
        #expect(parsed == ["EQUALS": "a=b==c", "TEXT": "Grüße, 世界", "EMPTY": "", "TWICE": "first"])
    }

    @Test("this process's environment is what ProcessInfo reads")
    func environment() {
        #expect(RunningProcess.environment() == ProcessInfo.processInfo.environment)
    }

    @Test("the executable's folder is this test runner's, an absolute path")
    func executableFolder() throws {
        let folder = try #require(RunningProcess.executableFolder)
        #expect(folder.hasPrefix("/"))
        #expect(FileManager.default.fileExists(atPath: folder))
    }
}

@Suite("Moments and token expiry")
struct MomentTests {
    @Test("a moment is wall-clock seconds since 1970: now agrees with the system clock; distance and advance are inverse")
    func moment() {
        let now = Moment.now()
        #expect(abs(now.secondsSince1970 - Date().timeIntervalSince1970) < 1)
        let later = now.advanced(by: 299)
        #expect(now.distance(to: later) == 299)
        #expect(later.distance(to: now) == -299)
        #expect(now < later)
    }

    @Test("an access token counts as expired 30 s before its time, and never without one")
    func tokenExpiry() {
        let now = Moment(secondsSince1970: 1_800_000_000)
        let tokens = { (seconds: Double?) in TokenSet(accessToken: "t", expiresAt: seconds.map { now.advanced(by: $0) }) }
        #expect(!tokens(31).isExpired(at: now))
        #expect(tokens(29).isExpired(at: now))
        #expect(tokens(-5).isExpired(at: now))
        #expect(!tokens(nil).isExpired(at: now))
    }
}
