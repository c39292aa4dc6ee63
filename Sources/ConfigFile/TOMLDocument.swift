/// A parsed TOML file: its name, for error messages, and its root table.
public struct TOMLDocument: Sendable, Equatable {
    /// The file name given to the parser; every error derived from this document names it.
    public let file: String
    /// The top-level table, whose ``TOMLTable/path`` is empty and ``TOMLTable/line`` is `nil`.
    public let root: TOMLTable

    /// Creates a document from an already-built root table.
    public init(file: String, root: TOMLTable) {
        self.file = file
        self.root = root
    }
}
