import Foundation
import Testing
import TestSupport

/// README.md's station recipe: its systemd drop-in, added to this
/// machine's `getty@.service`, is a unit systemd accepts, and the README
/// shows the files as they are in `docs/station`.
@Suite("the station's systemd unit")
struct StationUnitTests {
    static let analyzer = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let getty = ["/usr/lib/systemd/system/getty@.service", "/lib/systemd/system/getty@.service"]
        .first { FileManager.default.fileExists(atPath: $0) }
    static let dropIn = "getty@tty1.service.d/autologin.conf"

    @Test("systemd-analyze verify accepts getty@tty1.service with the drop-in, and refuses it when the drop-in is wrong",
          .enabled(if: analyzer != nil && getty != nil, "systemd-analyze or getty@.service is missing (.ci/run installs systemd)"))
    func verifies() async throws {
        let original = try String(contentsOfFile: StationFiles.path(Self.dropIn), encoding: .utf8)
        #expect(original.contains("\nExecStart=\n"), "the distribution's ExecStart is reset first")

        let verified = try await verify(dropIn: original)
        #expect(verified.status == 0, "\(verified.stderr)")
        #expect(verified.problems.isEmpty, "\(verified.problems)")

        // systemd does not look for a command marked "-" (failure ignored);
        // without the mark it checks that the program is there.
        let checked = try await verify(dropIn: original.replacingOccurrences(of: "ExecStart=-/", with: "ExecStart=/"))
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.problems.isEmpty, "\(checked.problems)")

        // The drop-in is read: without the reset the unit has two commands,
        // which systemd refuses; and a misspelt key is named.
        let twoCommands = try await verify(dropIn: original.replacingOccurrences(of: "\nExecStart=\n", with: "\n"))
        #expect(twoCommands.status != 0 && !twoCommands.problems.isEmpty, "\(twoCommands.stderr)")
        let misspelt = try await verify(dropIn: original.replacingOccurrences(of: "Restart=", with: "Restrat="))
        #expect(misspelt.problems.contains { $0.contains("Restrat") }, "\(misspelt.stderr)")
        let missing = try await verify(dropIn: original.replacingOccurrences(of: "ExecStart=-/sbin/agetty", with: "ExecStart=/sbin/no-such-agetty"))
        #expect(missing.status != 0 && !missing.problems.isEmpty, "\(missing.stderr)")
    }

    @Test("README.md shows the drop-in and the configuration as they are in docs/station")
    func readmeShowsTheFiles() throws {
        let readme = try String(contentsOfFile: StationFiles.path("../../README.md"), encoding: .utf8)
        for name in [Self.dropIn, "config.toml"] {
            let text = try String(contentsOfFile: StationFiles.path(name), encoding: .utf8)
            #expect(readme.contains("\n" + text + "```\n"), "README.md does not show docs/station/\(name) as it is")
        }
    }

    /// What `systemd-analyze verify` said about `getty@tty1.service`: this
    /// machine's `getty@.service` and `dropIn`, in a folder of their own.
    private func verify(dropIn: String) async throws -> (status: Int32, stderr: String, problems: [String]) {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("getty@tty1.service.d"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try #require(Self.getty), toPath: folder.file("getty@.service"))
        try dropIn.write(toFile: folder.file(Self.dropIn), atomically: true, encoding: .utf8)
        let result = try await runProcess(try #require(Self.analyzer), ["verify", folder.file("getty@tty1.service")], timeout: 60)
        // Other units it loads may be reported too; these lines are about this one.
        let problems = result.stderr.split(separator: "\n").map(String.init)
            .filter { $0.contains("getty@tty1") || $0.contains(folder.path) }
        return (result.status, result.stderr, problems)
    }
}

/// The files of README.md's station recipe, in `docs/station`.
enum StationFiles {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/station").standardizedFileURL.path

    static func path(_ name: String) -> String { folder + "/" + name }
}
