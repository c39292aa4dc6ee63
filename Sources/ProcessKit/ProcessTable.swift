import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The processes of this machine, as `/proc` lists them.
enum ProcessTable {
    /// A process: its parent and its state.
    struct Entry: Sendable {
        let pid: pid_t
        let parent: pid_t
        let state: Character

        var isZombie: Bool { state == "Z" }
        var isStopped: Bool { state == "T" }
    }

    /// `pid`'s entry, if it exists.
    static func entry(_ pid: pid_t) -> Entry? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        // "pid (name) state ppid …": the name may hold anything, so it is skipped to its last ")".
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 1, let state = fields[0].first, let parent = pid_t(fields[1]) else { return nil }
        return Entry(pid: pid, parent: parent, state: state)
    }

    /// Every process below `root`, but those in `skipping` and theirs.
    static func descendants(of root: pid_t, skipping: Set<pid_t> = []) -> [Entry] {
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }.compactMap(entry)
        let children = Dictionary(grouping: all, by: \.parent)
        var found: [Entry] = [], queue = [root]
        while let parent = queue.popLast() {
            for child in children[parent] ?? [] where !skipping.contains(child.pid) {
                found.append(child)
                queue.append(child.pid)
            }
        }
        return found
    }
}

/// Sets `signal` to be ignored; returns the action it had, for
/// `sigaction(signal, &old, nil)` to put back.
func ignore(_ signal: Int32) -> sigaction {
    var ignore = sigaction(), old = sigaction()
    ignore.__sigaction_handler.sa_handler = SIG_IGN
    sigaction(signal, &ignore, &old)
    return old
}

extension sigaction {
    /// Whether this action ignores its signal.
    var ignores: Bool { unsafeBitCast(__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) }
}
