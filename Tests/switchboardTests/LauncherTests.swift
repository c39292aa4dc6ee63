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

    @Test("it links no Foundation, GRDB or HTTP stack: only libc, the Swift runtime's libraries, libdispatch, ncurses and SQLite")
    func libraries() throws {
        let needed = try neededLibraries()
        #expect(needed.contains("libncursesw.so.6") && needed.contains("libsqlite3.so.0"), "\(needed)")
        let allowed = ["libc.so", "libm.so", "ld-linux", "libswift", "libdispatch.so", "libBlocksRuntime.so", "libncursesw.so", "libtinfo.so", "libsqlite3.so"]
        let others = needed.filter { name in !allowed.contains { name.hasPrefix($0) } }
        #expect(others.isEmpty, "\(others)")
    }
}
