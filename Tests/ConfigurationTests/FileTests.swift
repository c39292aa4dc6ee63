import Configuration
import Foundation
import Testing

@Suite("Configuration: the file")
struct FileTests {
    /// A fresh folder for one test's files.
    private func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "configuration-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a missing file gives the defaults; only a named one is worth a notice, which names it")
    func missingFile() throws {
        let configuration = try SwitchboardConfiguration.load(path: "/nonexistent/config.toml")
        #expect(configuration.file == nil && configuration.warnings.isEmpty)
        #expect(configuration.providers.providers.map(\.id) == ["demo"])
        let notice = SwitchboardConfiguration.missingFileNotice(explicit: "/nonexistent/config.toml", environment: [:])
        #expect(notice == "/nonexistent/config.toml: no such configuration file; using the defaults")
        #expect(SwitchboardConfiguration.missingFileNotice(explicit: nil, environment: ["SWITCHBOARD_CONFIG": "/nonexistent/b.toml"])?
            .hasPrefix("/nonexistent/b.toml") == true)
        #expect(SwitchboardConfiguration.missingFileNotice(explicit: nil, environment: ["HOME": "/nonexistent"]) == nil, "the default file may be absent")
    }

    @Test("where the file is: --config, else SWITCHBOARD_CONFIG, else XDG_CONFIG_HOME, else HOME")
    func location() {
        #expect(SwitchboardConfiguration.path(explicit: "/a.toml", environment: ["SWITCHBOARD_CONFIG": "/b.toml"]) == ("/a.toml", true))
        #expect(SwitchboardConfiguration.path(explicit: nil, environment: ["SWITCHBOARD_CONFIG": "/b.toml"]) == ("/b.toml", true))
        #expect(SwitchboardConfiguration.path(explicit: nil, environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])
            == ("/x/switchboard/config.toml", false))
        #expect(SwitchboardConfiguration.path(explicit: nil, environment: ["HOME": "/h"]) == ("/h/.config/switchboard/config.toml", false))
    }

    @Test("a file read from disk: errors name it by its path")
    func errorsNameThePath() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/config.toml"
        try "[store]\nkeep_events = \"400\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: (any Error).self) { try SwitchboardConfiguration.load(path: path) }
        #expect("\(error.map { "\($0)" } ?? "")".hasPrefix("\(path):2: store.keep_events: "))
    }

    @Test("client secrets in a file others can read are worth a warning; in one only its owner reads, not")
    func secretsWarning() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/config.toml"
        try "[providers.google]\nclient_id = \"c\"\nclient_secret = \"s\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let readable = try SwitchboardConfiguration.load(path: path)
        #expect(readable.file == path)
        #expect(readable.warnings == ["\(path) holds client secrets and others can read it; run chmod 600 \(path)"])
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(try SwitchboardConfiguration.load(path: path).warnings.isEmpty)
        try "[kiosk]\ngreeting = \"Hi\"\n".write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(try SwitchboardConfiguration.load(path: path).warnings.isEmpty, "no secret, nothing to say")
    }
}
