import Foundation
import SwitchboardCore
import Testing

@Suite("The running process, read without Foundation")
struct RunningProcessTests {
    @Test("the environment is what ProcessInfo reads, values with '=' and non-ASCII text included")
    func environment() {
        setenv("SWITCHBOARD_TEST_EQUALS", "a=b==c", 1)
        setenv("SWITCHBOARD_TEST_TEXT", "Grüße, 世界", 1)
        let ours = RunningProcess.environment()
        #expect(ours["SWITCHBOARD_TEST_EQUALS"] == "a=b==c")
        #expect(ours["SWITCHBOARD_TEST_TEXT"] == "Grüße, 世界")
        #expect(ours == ProcessInfo.processInfo.environment)
    }

    @Test("the executable's folder is this test runner's, an absolute path")
    func executableFolder() throws {
        let folder = try #require(RunningProcess.executableFolder)
        #expect(folder.hasPrefix("/"))
        #expect(FileManager.default.fileExists(atPath: folder))
    }

    @Test("a moment is wall-clock seconds since 1970: now agrees with the system clock; distance and advance are inverse")
    func moment() {
        let now = Moment.now()
        #expect(abs(now.secondsSince1970 - Date().timeIntervalSince1970) < 1)
        let later = now.advanced(by: 299)
        #expect(now.distance(to: later) == 299)
        #expect(now < later)
    }
}
