/// TOML's rules for defining tables and keys: no duplicate keys, no table defined twice,
/// no extending inline tables, and no mixing of `[header]` and dotted-key definitions.
extension TableNode {
    /// Handles a `[a.b.c]` header on `line`, returning the table that following keys go into.
    func defineTable(_ keys: [KeyPart], line: Int, file: String) throws(ConfigError) -> TableNode {
        let parent = try descendForHeader(keys.dropLast(), line: line, file: file)
        let name = keys[keys.count - 1].name
        let path = parent.childPath(name)
        switch parent.slot(name) {
        case nil:
            let node = TableNode(path: path, origin: .header, line: line)
            parent.set(name, .table(node))
            return node
        case .table(let node) where node.origin == .implicit:
            node.origin = .header
            node.line = line
            return node
        case .table(let node):
            throw ConfigError(file: file, line: line, key: path, message: "table is already defined at line \(node.line)")
        case .tableArray(_, let first):
            throw ConfigError(file: file, line: line, key: path,
                              message: "key is already defined as an array of tables at line \(first)")
        case .value(let value, let first):
            throw Self.conflict(value, first: first, file: file, line: line, path: path)
        }
    }

    /// Handles a `[[a.b.c]]` header on `line`, returning the new element table.
    func appendTableArray(_ keys: [KeyPart], line: Int, file: String) throws(ConfigError) -> TableNode {
        let parent = try descendForHeader(keys.dropLast(), line: line, file: file)
        let name = keys[keys.count - 1].name
        let path = parent.childPath(name)
        switch parent.slot(name) {
        case nil:
            let node = TableNode(path: KeyPath.element(path, 0), origin: .header, line: line)
            parent.set(name, .tableArray([node], line: line))
            return node
        case .tableArray(var nodes, let first):
            let node = TableNode(path: KeyPath.element(path, nodes.count), origin: .header, line: line)
            nodes.append(node)
            parent.set(name, .tableArray(nodes, line: first))
            return node
        case .table(let node):
            throw ConfigError(file: file, line: line, key: path,
                              message: "key is already defined as a table at line \(node.line)")
        case .value(let value, let first):
            throw Self.conflict(value, first: first, file: file, line: line, path: path)
        }
    }

    /// Adds `keys = value` (keys being a possibly dotted key) defined on `line` to this table.
    func insert(_ keys: [KeyPart], value: TOMLValue, line: Int, file: String) throws(ConfigError) {
        var node = self
        for part in keys.dropLast() {
            let path = node.childPath(part.name)
            switch node.slot(part.name) {
            case nil:
                let child = TableNode(path: path, origin: .dotted, line: line)
                node.set(part.name, .table(child))
                node = child
            case .table(let child) where child.origin == .dotted:
                node = child
            case .table(let child):
                throw ConfigError(file: file, line: line, key: path,
                                  message: "table is already defined at line \(child.line) and cannot be extended with dotted keys")
            case .tableArray(_, let first):
                throw ConfigError(file: file, line: line, key: path,
                                  message: "key is already defined as an array of tables at line \(first)")
            case .value(let existing, let first):
                throw Self.conflict(existing, first: first, file: file, line: line, path: path)
            }
        }
        let name = keys[keys.count - 1].name
        if let existing = node.slot(name) {
            throw ConfigError(file: file, line: line, key: node.childPath(name),
                              message: "duplicate key (first defined at line \(Self.line(of: existing)))")
        }
        node.set(name, .value(value, line: line))
    }

    /// Walks the leading parts of a header, creating implicit tables as needed and entering
    /// the last element of arrays of tables.
    private func descendForHeader(_ keys: ArraySlice<KeyPart>, line: Int, file: String) throws(ConfigError) -> TableNode {
        var node = self
        for part in keys {
            let path = node.childPath(part.name)
            switch node.slot(part.name) {
            case nil:
                let child = TableNode(path: path, origin: .implicit, line: line)
                node.set(part.name, .table(child))
                node = child
            case .table(let child):
                node = child
            case .tableArray(let nodes, _):
                node = nodes[nodes.count - 1]
            case .value(let value, let first):
                throw Self.conflict(value, first: first, file: file, line: line, path: path)
            }
        }
        return node
    }

    private static func conflict(_ value: TOMLValue, first: Int, file: String, line: Int, path: String) -> ConfigError {
        var message = "key is already defined as \(value.kindDescription) at line \(first)"
        if case .table = value { message += " (inline tables cannot be extended)" }
        return ConfigError(file: file, line: line, key: path, message: message)
    }

    private static func line(of slot: Slot) -> Int {
        switch slot {
        case .value(_, let line), .tableArray(_, let line): return line
        case .table(let node): return node.line
        }
    }
}
