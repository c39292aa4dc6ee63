/// One key of a table being built, as a part of a dotted key or header, with its position.
struct KeyPart {
    let name: String
    let position: SourcePosition
}

/// A table under construction. Unlike ``TOMLTable`` it can still grow, and it remembers
/// how it was defined so that TOML's rules against redefinition can be enforced.
final class TableNode {
    /// How a table came to exist.
    enum Origin {
        /// The document root.
        case root
        /// Created as a parent of a `[header]` and not (yet) defined itself.
        case implicit
        /// Defined by a `[header]` or `[[header]]`.
        case header
        /// Created by a dotted key such as `a.b = 1`.
        case dotted
        /// An inline table `{ ... }` being parsed.
        case inline
    }

    /// What a key of a table under construction holds.
    enum Slot {
        case value(TOMLValue, line: Int)
        case table(TableNode)
        case tableArray([TableNode], line: Int)
    }

    let path: String
    var origin: Origin
    var line: Int
    private var order: [String] = []
    private var slots: [String: Slot] = [:]

    init(path: String, origin: Origin, line: Int) {
        self.path = path
        self.origin = origin
        self.line = line
    }

    /// The slot of `key`, or `nil`.
    func slot(_ key: String) -> Slot? {
        slots[key]
    }

    /// Sets the slot of `key`, keeping the order of first definition.
    func set(_ key: String, _ slot: Slot) {
        if slots.updateValue(slot, forKey: key) == nil { order.append(key) }
    }

    /// The full path of `key` in this table.
    func childPath(_ key: String) -> String {
        KeyPath.join(path, key)
    }

    /// The finished, immutable table.
    func finish(file: String) -> TOMLTable {
        var entries: [TOMLTable.Entry] = []
        entries.reserveCapacity(order.count)
        for key in order {
            guard let slot = slots[key] else { continue }
            switch slot {
            case .value(let value, let line):
                entries.append(.init(key: key, value: value, line: line))
            case .table(let node):
                entries.append(.init(key: key, value: .table(node.finish(file: file)), line: node.line))
            case .tableArray(let nodes, let line):
                var elements: [TOMLValue] = []
                for node in nodes { elements.append(.table(node.finish(file: file))) }
                entries.append(.init(key: key, value: .array(elements), line: line))
            }
        }
        return TOMLTable(file: file, path: path, line: origin == .root ? nil : line, entries: entries)
    }
}
