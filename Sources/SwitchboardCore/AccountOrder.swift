/// The orders accounts are listed in.
public enum AccountOrder: Hashable, Sendable {
    /// Most recently used first, then most often used, then by id: the
    /// chooser's and `accounts`' order.
    case recentUse
    /// By name, case folded (`nameKey`), equal names by id: a station's
    /// order, which says nothing about who was there last.
    case name

    /// The key a name is found and sorted by: the name lower-cased. The
    /// store keeps it beside the name (so the lookup and the order by name
    /// are indexed), and the chooser sorts by its UTF-8 bytes, as the
    /// store's index does.
    public static func nameKey(_ name: String) -> String { name.lowercased() }

    /// The key an email is found by: lower-cased, as names are.
    public static func emailKey(_ email: String) -> String { email.lowercased() }
}
