import ConfigFile

/// Theme files: TOML with an optional `name` and one `[roles]` table from
/// role to colours and attributes.
///
/// ```toml
/// name = "default"
/// [roles]
/// text = { fg = "default", bg = "default" }
/// accountSelected = { fg = "black", bg = "cyan", attrs = ["bold"] }
/// muted = { fg = 244 }
/// code = { fg = "#ffcc00", attrs = ["bold"] }
/// ```
///
/// A colour is `"default"`, one of the eight names or its `"bright-"` form
/// (8–15), an integer 0–255, or `"#rrggbb"` (mapped to the nearest entry of
/// 16–255). `attrs` lists names from ``TextAttributes/named``. Each of `fg`,
/// `bg` and `attrs` may be left out (default colour, no attributes); roles
/// the file leaves out take the built-in default's style.
extension Theme {
    /// Parses theme-file `text`; `file` names it in errors and, without a
    /// `name` key, gives the theme its name (its last path component without
    /// `.toml`).
    public static func parse(text: String, file: String) throws(ConfigError) -> Theme {
        try Theme(document: TOMLParser.parse(text, file: file))
    }

    /// Reads and parses the theme file at `path`; errors name the file as
    /// `displayName`, or as `path`.
    public static func load(path: String, displayName: String? = nil) throws(ConfigError) -> Theme {
        try Theme(document: ConfigFile.load(path: path, displayName: displayName))
    }

    /// The theme a parsed theme file describes. Every error names the file,
    /// the line and the dotted key, such as `roles.accountSelected.fg`.
    public init(document: TOMLDocument) throws(ConfigError) {
        let root = document.root
        try root.rejectUnknownKeys(allowed: ["name", "roles"])
        let name = try root.optionalString("name") ?? Self.name(fromFile: document.file)
        if name.isEmpty { throw root.error(key: "name", "a theme's name must not be empty") }
        var styles = Theme.builtIn.styles
        if let roles = try root.optionalTable("roles") {
            try roles.rejectUnknownKeys(allowed: ThemeRole.allCases.map(\.rawValue))
            for entry in roles.entries {
                guard let role = ThemeRole(rawValue: entry.key) else { continue }
                styles[role] = try Self.style(from: roles.table(entry.key))
            }
        }
        self.init(name: name, styles: styles)
    }

    /// The theme name a file name implies: `themes/light.toml` → `light`.
    static func name(fromFile file: String) -> String {
        var base = Substring(file.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        if base.hasSuffix(".toml") { base = base.dropLast(5) }
        return String(base)
    }

    private static func style(from table: TOMLTable) throws(ConfigError) -> Style {
        try table.rejectUnknownKeys(allowed: ["fg", "bg", "attrs"])
        var attributes: TextAttributes = []
        let names = TextAttributes.named.map(\.name)
        for (index, word) in (try table.optionalStringArray("attrs") ?? []).enumerated() {
            guard let attribute = TextAttributes.named.first(where: { $0.name == word })?.attribute else {
                let key = table.keyPath("attrs") + "[\(index)]"
                throw ConfigError(file: table.file, line: table.entry(for: "attrs")?.line ?? table.line, key: key,
                                  message: unknown("attribute", word, among: names) + "; attributes are " + names.joined(separator: ", "))
            }
            attributes.insert(attribute)
        }
        return Style(foreground: try color(table, "fg"), background: try color(table, "bg"), attributes: attributes)
    }

    private static func color(_ table: TOMLTable, _ key: String) throws(ConfigError) -> Color {
        let forms = "a colour is \"default\", a name such as \"cyan\" or \"bright-cyan\", an integer 0–255 or \"#rrggbb\""
        switch table[key] {
        case nil:
            return .default
        case .integer?:
            return .palette(UInt8(try table.integer(key, in: 0...255)))
        case .string(let word)?:
            if word.hasPrefix("#") {
                guard let rgb = Palette.RGB(hex: word) else {
                    throw table.error(key: key, "invalid colour \"\(word)\": expected \"#rrggbb\" with six hexadecimal digits")
                }
                return .palette(Palette.nearest(to: rgb))
            }
            if let color = Color.named.first(where: { $0.name == word })?.color { return color }
            throw table.error(key: key, unknown("colour", word, among: Color.named.map(\.name)) + "; " + forms)
        case let value?:
            throw table.error(key: key, "expected a colour, found \(value.kindDescription); \(forms)")
        }
    }

    /// `unknown colour "cyna" (did you mean "cyan"?)`.
    static func unknown(_ kind: String, _ word: String, among candidates: [String]) -> String {
        let quoted = TOMLTable.quotedForMessage(word)
        guard let near = nearMiss(word, among: candidates) else { return "unknown \(kind) \(quoted)" }
        return "unknown \(kind) \(quoted) (did you mean \"\(near)\"?)"
    }

    /// The candidate ConfigFile's suggestion rules would offer for `word`, if any.
    /// (ConfigFile keeps its edit distance internal; this asks it through a
    /// one-entry table and reads the suggestion out of its message.)
    static func nearMiss(_ word: String, among candidates: [String]) -> String? {
        let probe = TOMLTable(entries: [.init(key: "value", value: .string(word), line: 1)])
        do {
            _ = try probe.string("value", oneOf: candidates)
            return word
        } catch {
            let marker = "(did you mean \""
            guard let start = error.message.ranges(of: marker).last?.upperBound,
                  let end = error.message[start...].firstIndex(of: "\"") else { return nil }
            return String(error.message[start..<end])
        }
    }
}

extension Color {
    /// Every colour name theme files accept, in palette order: `default`,
    /// the eight basic colours (0–7) and their `bright-` forms (8–15).
    public static let named: [(name: String, color: Color)] = {
        let basic = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        return [("default", .default)]
            + basic.enumerated().map { ($1, .palette(UInt8($0))) }
            + basic.enumerated().map { ("bright-" + $1, .palette(UInt8($0 + 8))) }
    }()
}

private extension TOMLTable {
    /// `word` in double quotes, control characters escaped, shortened if long.
    static func quotedForMessage(_ word: String) -> String {
        var text = ""
        for scalar in word.unicodeScalars.prefix(40) {
            if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\"" || scalar == "\\" {
                text += scalar.escaped(asASCII: false)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return "\"" + text + (word.unicodeScalars.count > 40 ? "…" : "") + "\""
    }
}
