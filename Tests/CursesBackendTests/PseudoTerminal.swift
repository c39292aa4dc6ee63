import CNcurses
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal for tests: the backend drives the slave end; the test
/// reads what it wrote, and types, at the master end.
final class PseudoTerminal {
    let master: Int32
    let slave: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(columns: Int = 80, rows: Int = 24) throws {
        // Sizes come from the terminal, not from the environment.
        unsetenv("LINES")
        unsetenv("COLUMNS")
        var ends: (master: Int32, slave: Int32) = (-1, -1)
        guard sb_open_pty(&ends.master, &ends.slave) == 0 else {
            throw Failure(description: "no pseudo-terminal: errno \(errno)")
        }
        (master, slave) = ends
        _ = sb_set_nonblocking(master)
        resize(columns: columns, rows: rows)
    }

    private var masterOpen = true

    deinit {
        close(slave)
        if masterOpen { close(master) }
    }

    /// Closes the master end: the terminal hangs up.
    func hangUp() {
        if masterOpen { close(master) }
        masterOpen = false
    }

    func resize(columns: Int, rows: Int) {
        _ = sb_set_winsize(master, Int32(rows), Int32(columns))
    }

    /// What the backend wrote: reads until `count` bytes came (when given)
    /// or nothing more came for 50 ms.
    func output(count: Int? = nil, timeout: Int = 2000) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var waited = 0
        while waited < timeout {
            if let count, result.count >= count { break }
            var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, 50) <= 0 {
                waited += 50
                if count == nil { break }
                continue
            }
            let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            result += buffer[..<n]
        }
        return result
    }

    /// Types `text` as the terminal's keyboard would.
    func type(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// The slave's current modes.
    var modes: termios {
        var modes = termios()
        tcgetattr(slave, &modes)
        return modes
    }
}

extension Array where Element == UInt8 {
    /// Whether `text`'s UTF-8 bytes occur in these bytes.
    func contains(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if Array(self[start..<(start + needle.count)]) == needle { return true }
        }
        return false
    }

    /// The bytes with escape characters shown as `⎋`, for messages.
    var shown: String { String(decoding: self, as: UTF8.self).replacingEscapes() }
}

extension String {
    func replacingEscapes() -> String {
        var result = ""
        for scalar in unicodeScalars { result += scalar == "\u{1B}" ? "⎋" : String(scalar) }
        return result
    }
}
