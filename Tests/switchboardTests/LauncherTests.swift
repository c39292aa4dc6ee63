import Foundation
import Testing
import TestSupport

@Suite("The launcher")
struct LauncherTests {
    /// The shared libraries `switchboard` asks for at exec (`readelf -d`).
    func neededLibraries() throws -> [String] {
        let result = try runProcess("/usr/bin/readelf", ["-d", builtProduct("switchboard")])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test("it loads no Foundation, GRDB or HTTP stack before its first frame: only libc, the Swift runtime, ncurses, SQLite, libdispatch")
    func libraries() throws {
        let needed = try neededLibraries()
        #expect(needed.contains("libncursesw.so.6") && needed.contains("libsqlite3.so.0"), "\(needed)")
        let heavy = needed.filter { name in
            ["Foundation", "GRDB", "ssl", "crypto", "curl", "xml", "ArgumentParser"].contains { name.localizedCaseInsensitiveContains($0) }
        }
        #expect(heavy.isEmpty, "\(heavy)")
    }
}
