import Foundation
import Testing
import TestSupport

/// config.toml is read once per invocation, whichever sections the command
/// and its store ask for: counted in the opens `strace` sees of the built
/// program answering git's credential helper protocol.
@Suite("config.toml read once per invocation", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/strace"), "strace is not installed (.ci/run installs it)"))
struct ConfigurationReadOnceTests {
    @Test("git-credential get opens config.toml once, on a file store and on a shared one (its server away)", arguments: [false, true])
    func opensOnce(shared: Bool) async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("config/switchboard"), withIntermediateDirectories: true)
        let store = shared ? "[store]\nurl = \"postgresql://lab@127.0.0.1:1/fleet\"\nstation = \"lab-1\"\n" : ""
        try ("[git]\nset_identity = true\n" + store).write(toFile: folder.file("config/switchboard/config.toml"), atomically: true, encoding: .utf8)
        let trace = folder.file("trace")
        let result = try await runProcess(
            "/usr/bin/strace", ["-f", "-e", "trace=openat,open", "-o", trace, builtProduct("switchboard"), "git-credential", "get"],
            environment: [
                "HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("data"),
                "SWITCHBOARD_SESSION": shared ? "lab-1/tty1" : "tty1",
            ],
            timeout: 60, input: "protocol=https\nhost=github.com\n\n")
        #expect(result.status == (shared ? 18 : 0), "\(result.stderr)")
        let opens = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter { $0.contains("config/switchboard/config.toml") }
        #expect(opens.count == 1, "\(opens.joined(separator: "\n"))")
    }
}
