#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about this process, read with POSIX calls (no Foundation).
public enum RunningProcess {
    /// The folder of the running executable (`/proc/self/exe`), if known.
    public static let executableFolder: String? = {
        var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &path, path.count - 1)
        guard count > 0 else { return nil }
        let executable = String(decoding: path[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return executable.lastIndex(of: "/").map { String(executable[..<$0]) }
    }()

    /// The environment as `ProcessInfo` gives it: the first of repeated names wins.
    public static func environment() -> [String: String] {
        environment(from: environ)
    }

    /// The variables of a C environment block (`NAME=value` strings up to a
    /// null): the first of repeated names wins; an entry without `=` is skipped.
    /// Split at the first `=` byte, not by characters: no grapheme breaking at launch.
    public static func environment(from block: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var result: [String: String] = [:]
        var entry = block
        while let pointer = entry.pointee {
            if let equals = strchr(pointer, 0x3D) {
                let name = String(decoding: UnsafeRawBufferPointer(start: pointer, count: pointer.distance(to: equals)), as: UTF8.self)
                if result[name] == nil { result[name] = String(cString: equals + 1) }
            }
            entry += 1
        }
        return result
    }
}
