import SwitchboardCore

/// Which characters of an account's row the filter matched, for the pane
/// to highlight: the way the query matches, worked out as the index
/// scores it (`FuzzyScore`, the same fields in the same order, a field
/// already in the text left out) but from the text as drawn
/// (`displaySafe`), so that each byte matched leads back to a character on
/// screen. Worked out at draw time for the rows on screen only.
struct RowMatches: Equatable, Sendable {
    /// Offsets, in characters, of the matched ones in the name as drawn
    /// (`account.name.displaySafe`).
    var name: Set<Int> = []
    /// By identity (its index in `account.identities`): offsets of the
    /// matched characters in its provider as drawn.
    var providers: [Int: Set<Int>] = [:]
    /// By identity: offsets of the matched characters in its email.
    var emails: [Int: Set<Int>] = [:]

    /// Nothing matched (no query, or no match).
    static let none = RowMatches()

    private init() {}

    private enum Field { case name, provider(Int), email(Int), displayName(Int) }

    /// The characters of `account` that `query` matches; none when it
    /// does not match (or is empty).
    init(_ query: String, in account: Account) {
        let query = FuzzyQuery(query)
        guard !query.isEmpty else { return }
        var fields: [(field: Field, text: String)] = [(.name, account.name.displaySafe)]
        for (index, identity) in account.identities.enumerated() {
            fields.append((.provider(index), identity.provider.rawValue.displaySafe))
            if let email = identity.email { fields.append((.email(index), email.displaySafe)) }
            if let displayName = identity.displayName { fields.append((.displayName(index), displayName.displaySafe)) }
        }
        // The text lower-cased character by character, and for each byte the field and character it came from.
        var text: [UInt8] = [], owners: [(field: Int, offset: Int)] = []
        for (number, entry) in fields.enumerated() {
            let mark = text.count
            if number > 0 {
                text.append(0x1F)
                owners.append((-1, -1))
            }
            for (offset, character) in entry.text.enumerated() {
                let lower: [UInt8] = if let ascii = character.asciiValue {
                    [ascii &- 0x41 < 26 ? ascii | 0x20 : ascii]
                } else {
                    Array(String(character).lowercased().utf8)
                }
                text.append(contentsOf: lower)
                owners.append(contentsOf: repeatElement((field: number, offset: offset), count: lower.count))
            }
            if number > 0, SearchIndex.occurs(text[(mark + 1)...], in: text[..<mark]) {
                text.removeSubrange(mark...)
                owners.removeSubrange(mark...)
            }
        }
        let length = text.count
        text.append(contentsOf: repeatElement(0, count: 32))  // the matcher reads a vector past the end
        let found = text.withUnsafeBufferPointer { text in
            FuzzyMatcher(query).alignment(text.baseAddress!, start: 0, end: length)
        }
        guard let found else { return }
        for (unit, place) in found.places.enumerated() {
            let unitLength = Int(query.bounds[unit + 1] - query.bounds[unit])
            for byte in place..<place + unitLength {
                let owner = owners[byte]
                guard owner.field >= 0 else { continue }
                switch fields[owner.field].field {
                case .name: name.insert(owner.offset)
                case .provider(let identity): providers[identity, default: []].insert(owner.offset)
                case .email(let identity): emails[identity, default: []].insert(owner.offset)
                case .displayName: break  // not drawn in the row
                }
            }
        }
    }
}
