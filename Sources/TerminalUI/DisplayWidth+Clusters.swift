extension DisplayWidth {
    /// The width of a cluster of two or more scalars; the rules are listed
    /// on `of(_:)`.
    static func clusterWidth(
        first: Unicode.Scalar, second: Unicode.Scalar, rest: inout String.UnicodeScalarView.Iterator
    ) -> Int {
        if isControl(first) { return 0 }
        var base = first
        var width = scalarWidth(first)
        var textPresentation = false, emojiPresentation = false
        var afterJoiner = false
        var joined: Unicode.Scalar?  // the first scalar after a zero-width joiner
        var next: Unicode.Scalar? = second
        while let scalar = next {
            switch scalar.value {
            case 0xFE0E: textPresentation = true
            case 0xFE0F: emojiPresentation = true
            case 0x200D:
                afterJoiner = true
                next = rest.next()
                continue
            default:
                if width == 0 {
                    width = scalarWidth(scalar)
                    base = scalar
                } else if afterJoiner, joined == nil {
                    joined = scalar
                }
            }
            afterJoiner = false
            next = rest.next()
        }
        guard width > 0 else { return 0 }
        if width == 2 && !textPresentation || isRegionalIndicator(base) { return 2 }
        // Only now is an emoji property lookup worth its cost.
        guard emojiPresentation || textPresentation || joined != nil, base.properties.isEmoji else { return width }
        if emojiPresentation || joined?.properties.isEmoji == true { return 2 }
        return textPresentation ? 1 : width
    }

    /// C0 and C1 control characters.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value)
    }

    /// The 26 letters that pair up into flags.
    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }
}
