import Foundation
import ProcessKit
import Testing
import TestBasics
import TestSupport

/// A paste is as many keys as it has characters: the chooser must take a
/// big one without holding memory for each of them. At a station every key
/// also moves the idle deadline, which once left a timer behind per key.
@Suite("switchboard: a big paste on the chooser's terminal")
struct PasteMemoryTests {
    /// What /proc says of `pid`'s peak resident memory (`VmHWM`), in bytes.
    private static func peak(of pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first { Int($0) != nil } ?? "") ?? 0) * 1024
    }

    @Test("100 kB pasted into a station's filter: it draws it, answers the next key, and its peak memory grows by less than 32 MB")
    func pasteStaysBounded() async throws {
        let cli = CLI()
        _ = try cli.populate()
        let config = cli.folder.file("config")
        try FileManager.default.createDirectory(atPath: config + "/switchboard", withIntermediateDirectories: true)
        try "[kiosk]\nidle_timeout = 600\n".write(toFile: config + "/switchboard/config.toml", atomically: true, encoding: .utf8)
        let environment = [
            "SWITCHBOARD_DATABASE": cli.path, "SWITCHBOARD_SESSION": "paste", "TERM": "xterm-256color", "HOME": cli.folder.path, "PATH": "/usr/bin:/bin",
            "XDG_CONFIG_HOME": config,
        ]
        let switchboard = builtProduct("switchboard")
        let (before, after, answered, output) = try await offThePool { () throws -> (Int, Int, Bool, String) in
            let chooser = try TerminalProcess(switchboard, arguments: ["kiosk"], environment: environment, columns: 100, rows: 30)
            defer {
                kill(chooser.pid, SIGTERM)  // a station's own stop
                _ = chooser.finish(timeout: 30)
            }
            func tail() -> String { String(decoding: chooser.output.suffix(2000), as: UTF8.self) }
            guard chooser.wait(for: Array("filter".utf8), timeout: 60) != nil else { return (0, 0, false, tail()) }
            let before = Self.peak(of: chooser.pid)
            chooser.send(Array("/".utf8))
            // In pieces, reading what it draws meanwhile, as a terminal does.
            let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
            for _ in 0..<25 {
                chooser.send(piece)
                chooser.pump(timeout: 0)
            }
            let shown = chooser.wait(for: Array("No account matches".utf8), timeout: 60) != nil
            // Escape ends the filter; the list answering it shows every key was taken.
            chooser.send([0x1b])
            let answered = shown && chooser.wait(for: Array("Ada Lovelace".utf8), timeout: 60) != nil
            return (before, Self.peak(of: chooser.pid), answered, tail())
        }
        #expect(answered, "the station drew the filter's end and answered Escape; it wrote last:\n\(output)")
        #expect(before > 0 && after - before < 32 << 20, "peak before the paste \(before >> 20) MB, after \(after >> 20) MB")
    }
}
