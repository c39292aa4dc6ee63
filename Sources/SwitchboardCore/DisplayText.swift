extension String {
    /// The string made safe to show in a terminal: control characters (C0,
    /// C1, DEL — and with them every escape sequence's introducer) and
    /// bidirectional overrides removed, so a provider's display name cannot
    /// move the cursor, change colours or reorder the screen.
    public var displaySafe: String {
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: continue
            default: scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
