import CSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal, as a terminal emulator holds one: a program drives the
/// slave end as its terminal; the owner reads what it wrote, and types, at
/// the master end.
///
/// Everything read from the master is kept in `received`. Reads wait with
/// `poll`, so none blocks past its time limit. Not thread-safe: one owner.
public final class PseudoTerminal {
    /// The master end: what the slave's program writes arrives here, and
    /// what is written here is what it reads.
    public let master: Int32
    /// The slave end, opened by this process (close-on-exec, not this
    /// process's controlling terminal); -1 once `closeSlave()` closed it.
    public private(set) var slave: Int32
    /// The slave's path, e.g. `/dev/pts/3`, for a child to open as its terminal.
    public let slavePath: String
    /// Everything read from the master so far.
    public private(set) var received: [UInt8] = []
    /// `Monotonic.seconds()` when a read found that the terminal hung up
    /// (every descriptor of the slave closed, e.g. its program exited), if one has.
    public private(set) var hungUp: Double?

    /// How far `read(until:timeout:)` has looked through `received`.
    private var searchedTo = 0
    private var masterOpen = true

    /// Opens a new pseudo-terminal of `columns`×`rows` cells, both ends.
    public init(columns: Int = 80, rows: Int = 24) throws(ProcessError) {
        var name = [CChar](repeating: 0, count: 256)
        let master = cpt_open_master(&name, name.count)
        guard master >= 0 else { throw .system("cannot open a pseudo-terminal") }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = cpt_open_slave(path)
        guard slave >= 0 else {
            let error = ProcessError.system("cannot open a pseudo-terminal")
            close(master)
            throw error
        }
        self.master = master
        self.slave = slave
        self.slavePath = path
        resize(columns: columns, rows: rows)
    }

    deinit {
        if slave >= 0 { close(slave) }
        if masterOpen { close(master) }
    }

    /// Sets the terminal's size. The program on it learns of it from
    /// `SIGWINCH`, which its session's foreground process group gets when
    /// the slave is its controlling terminal (send it yourself otherwise).
    public func resize(columns: Int, rows: Int) {
        _ = cpt_set_window_size(master, UInt16(clamping: rows), UInt16(clamping: columns))
    }

    /// The terminal's size in cells; nil once the master is closed.
    public var size: (columns: Int, rows: Int)? {
        var rows: UInt16 = 0, columns: UInt16 = 0
        guard masterOpen, cpt_get_window_size(master, &rows, &columns) == 0 else { return nil }
        return (Int(columns), Int(rows))
    }

    /// The slave's current modes (`tcgetattr`): what a program on it set,
    /// raw or cooked, echo or not.
    public var modes: termios {
        var modes = termios()
        tcgetattr(slave >= 0 ? slave : master, &modes)
        return modes
    }

    /// Closes this process's descriptor of the slave, so that the terminal
    /// hangs up once the program on it has closed its own.
    public func closeSlave() {
        if slave >= 0 { close(slave) }
        slave = -1
    }

    /// A new program is about to open the slave: what it writes is read again.
    func startingAgain() { hungUp = nil }

    /// Closes the master end: the program on the slave sees the terminal hang up.
    public func hangUp() {
        if masterOpen { close(master) }
        masterOpen = false
    }

    // MARK: Reading

    /// Reads what arrives within `timeout` seconds into `received`: returns
    /// after the first read, or when the time is up. False once the terminal
    /// hung up (or the master is closed).
    @discardableResult
    public func pump(timeout: Double) -> Bool {
        guard hungUp == nil, masterOpen else { return false }
        var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(max(0, timeout * 1000).rounded(.up)))
        guard ready > 0 else { return true }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { readSome(master, into: $0) }
        if count > 0 {
            received.append(contentsOf: chunk[..<count])
            return true
        }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return true }
        hungUp = Monotonic.seconds()  // EIO: every slave descriptor is closed
        return false
    }

    /// Reads until `pattern` has arrived (looking only at what earlier
    /// calls have not searched) and returns `Monotonic.seconds()` at the
    /// read that completed it; nil after `timeout` seconds or a hang-up.
    public func read(until pattern: [UInt8], timeout: Double) -> Double? {
        let deadline = Monotonic.seconds() + timeout
        while true {
            if let end = Self.find(pattern, in: received, from: max(0, searchedTo - pattern.count + 1)) {
                searchedTo = end
                return Monotonic.seconds()
            }
            searchedTo = received.count
            let left = deadline - Monotonic.seconds()
            guard left > 0, pump(timeout: left) else { return nil }
        }
    }

    /// Reads until nothing has arrived for `quiet` seconds (at most `limit`
    /// seconds in all) and returns the bytes that arrived meanwhile. Later
    /// `read(until:timeout:)` calls look only at what comes after them.
    public func readUntilQuiet(quiet: Double, limit: Double) -> [UInt8] {
        let start = received.count
        let deadline = Monotonic.seconds() + limit
        var last = Monotonic.seconds()
        while Monotonic.seconds() < deadline, Monotonic.seconds() - last < quiet {
            let before = received.count
            guard pump(timeout: min(quiet - (Monotonic.seconds() - last), deadline - Monotonic.seconds())) else { break }
            if received.count > before { last = Monotonic.seconds() }
        }
        searchedTo = received.count
        return Array(received[start...])
    }

    // MARK: Writing

    /// Types `bytes` at the keyboard: the program on the slave reads them.
    public func send(_ bytes: [UInt8]) {
        guard masterOpen else { return }
        writeAll(master, bytes)
    }

    /// Types `text`'s UTF-8 bytes (escape sequences included, e.g. `"\u{1B}[A"` for up).
    public func type(_ text: String) { send(Array(text.utf8)) }

    /// Where the first `needle` in `haystack` at or after `from` ends; nil
    /// when there is none (or `needle` is empty).
    public static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = from
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) {
                return index + needle.count
            }
            index += 1
        }
        return nil
    }
}
