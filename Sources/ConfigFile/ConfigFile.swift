#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Loading configuration files from disk.
public enum ConfigFile {
    /// Files larger than this are rejected rather than read.
    public static let maximumSize = 8 * 1024 * 1024

    /// Reads and parses the TOML file at `path`. Errors name the file as `displayName`,
    /// or as `path` when none is given; unreadable files and invalid UTF-8 are errors too.
    public static func load(path: String, displayName: String? = nil) throws(ConfigError) -> TOMLDocument {
        try TOMLParser.parse(try text(path: path, displayName: displayName), file: displayName ?? path)
    }

    /// The text of the file at `path`, read with POSIX calls (errors name
    /// the file as `displayName`, or as `path`).
    public static func text(path: String, displayName: String? = nil) throws(ConfigError) -> String {
        let name = displayName ?? path
        return try decodeUTF8(try readFile(path, name: name), file: name)
    }

    /// Decodes `bytes` as UTF-8; invalid bytes are an error at their line and column.
    public static func decodeUTF8(_ bytes: [UInt8], file: String) throws(ConfigError) -> String {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        var line = 1
        var column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                offset += encoded.count
                if encoded.count == 1 && encoded.first == ASCII.newline {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .error(let length):
                let shown = bytes[offset..<offset + length].map { "0x" + ASCII.hex($0, digits: 2) }
                throw ConfigError(file: file, line: line, column: column,
                                  message: "invalid UTF-8 (bytes \(shown.joined(separator: " ")))")
            case .emptyInput:
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    /// Reads the whole file with POSIX calls, so failures carry the system's
    /// reason. Only a regular file is read: the open does not wait (a FIFO
    /// would wait for a writer forever), and anything else is refused by
    /// what it is before a byte is read.
    private static func readFile(_ path: String, name: String) throws(ConfigError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { throw systemError(name) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw systemError(name) }
        if let kind = fileKind(info.st_mode) {
            throw ConfigError(file: name, message: "cannot read file: it is \(kind), not a regular file")
        }
        // A regular file never blocks; reading waits no more with the flag off.
        _ = fcntl(descriptor, F_SETFL, 0)
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw systemError(name)
            }
            if count == 0 { return result }
            result.append(contentsOf: buffer[0..<count])
            if result.count > maximumSize {
                throw ConfigError(file: name, message: "cannot read file: larger than \(maximumSize) bytes")
            }
        }
    }

    /// What a file of this mode (`st_mode`) is, in words, or nil for a
    /// regular file: for messages that refuse anything else.
    public static func fileKind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    private static func systemError(_ name: String) -> ConfigError {
        ConfigError(file: name, message: "cannot read file: " + String(cString: strerror(errno)))
    }
}
