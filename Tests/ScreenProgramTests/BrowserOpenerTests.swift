import Foundation
import Testing
import TestBasics
import TestSupport
@testable import ChooserApp

/// `ChooserEnvironment.xdgOpen`: the browser opener the chooser is given.
@Suite("browser opener")
struct BrowserOpenerTests {
    @Test("xdg-open is found on PATH and given the URL alone, with input from /dev/null; the chooser is not held up")
    func opensWithXDGOpen() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let seen = folder.file("seen")
        let opener = folder.file("xdg-open")
        // Writes its arguments and its input, then stays a while, as a browser would.
        try "#!/bin/sh\nprintf '%s|' \"$@\" > \"$0.part\"; cat >> \"$0.part\"; mv \"$0.part\" \(seen); sleep 5\n"
            .write(toFile: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: opener)

        let started = Date()
        try ChooserEnvironment.xdgOpen(
            "http://127.0.0.1:1/device?code=AB-CD", environment: ["PATH": folder.path + ":/usr/bin:/bin", "DISPLAY": ":0"])
        #expect(Date().timeIntervalSince(started) < 2, "returns once started, not when the opener ends")
        try await waitUntil("xdg-open ran") { FileManager.default.fileExists(atPath: seen) }
        #expect(try String(contentsOfFile: seen, encoding: .utf8) == "http://127.0.0.1:1/device?code=AB-CD|", "one argument, empty input")
    }

    @Test("no xdg-open on PATH is an error in words the chooser can show")
    func missingOpener() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        #expect {
            try ChooserEnvironment.xdgOpen("http://127.0.0.1:1/", environment: ["PATH": folder.path, "WAYLAND_DISPLAY": "wayland-0"])
        } throws: { error in
            error.localizedDescription == "no xdg-open on PATH"
        }
    }

    @Test("where no browser can be opened (no display, no BROWSER), it says so at once and starts nothing", arguments: [
        [String: String](), ["DISPLAY": ""], ["TERM": "xterm-256color", "SSH_CONNECTION": "10.0.0.1 2 10.0.0.2 22"],
    ])
    func noDisplay(_ extra: [String: String]) throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let ran = folder.file("ran")
        let opener = folder.file("xdg-open")
        try "#!/bin/sh\ntouch \(ran)\n".write(toFile: opener, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: opener)
        #expect {
            try ChooserEnvironment.xdgOpen("http://127.0.0.1:1/", environment: extra.merging(["PATH": folder.path]) { $1 })
        } throws: { error in
            error.localizedDescription == "no browser can be opened here: no display, and BROWSER names none"
        }
        #expect(!FileManager.default.fileExists(atPath: ran))
    }
}
