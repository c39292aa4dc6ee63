import ConfigFile
import Foundation
import Testing

@Suite struct LoadTests {
    /// A fresh directory for one test's files.
    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "configfile-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func loadsAFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try Data("[kiosk]\nenabled = true\n".utf8).write(to: URL(fileURLWithPath: path))
        let doc = try ConfigFile.load(path: path)
        #expect(doc.file == path)
        #expect(try doc.root.table("kiosk").bool("enabled"))
        let named = try ConfigFile.load(path: path, displayName: "config.toml")
        #expect(try named.root.table("kiosk").error("x").description == "config.toml:1: kiosk: x")
    }

    @Test func missingFilesAndDirectoriesAreErrors() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(errorText { _ = try ConfigFile.load(path: directory + "/nope.toml", displayName: "nope.toml") }
            == "nope.toml: cannot read file: No such file or directory")
        #expect(errorText { _ = try ConfigFile.load(path: directory, displayName: "themes") }
            == "themes: cannot read file: it is a folder, not a regular file")
    }

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        #expect(mkfifo(path, 0o600) == 0)
        // Before the fix this open waited for a writer forever.
        #expect(errorText { _ = try ConfigFile.load(path: path, displayName: "config.toml") }
            == "config.toml: cannot read file: it is a FIFO (named pipe), not a regular file")
    }

    @Test func invalidUTF8IsAnErrorNamingTheLine() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bad.toml"
        let bytes: [UInt8] = Array("a = 1\nb = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(errorText { _ = try ConfigFile.load(path: path, displayName: "bad.toml") }
            == "bad.toml:2:6: invalid UTF-8 (bytes 0xC3)")
        #expect(errorText { _ = try ConfigFile.decodeUTF8([0x61, 0xFF], file: "x") } == "x:1:2: invalid UTF-8 (bytes 0xFF)")
        #expect(try ConfigFile.decodeUTF8(Array("é\n😀".utf8), file: "x") == "é\n😀")
    }

    @Test func syntaxErrorsInLoadedFilesNameTheFile() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/config.toml"
        try Data("\n\nkey = \"open\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(errorText { _ = try ConfigFile.load(path: path, displayName: "config.toml") }
            == "config.toml:3:7: key: unterminated string")
    }
}
