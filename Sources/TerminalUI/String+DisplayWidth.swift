extension String {
    /// The columns this string takes on a terminal (see `DisplayWidth`).
    public var displayWidth: Int { DisplayWidth.of(text: self) }

    /// The longest prefix at most `width` columns wide, ending with
    /// `ellipsis` when anything was cut: `"日本語".truncated(toWidth: 4)` is
    /// `"日…"`, since half of `本` cannot be shown. The string itself when it
    /// fits; plain cut without an ellipsis when even the ellipsis is wider
    /// than `width`; `""` when `width` is 0 or less. Stops reading at the
    /// first cluster past `width`, so long strings cost only what is shown.
    public func truncated(toWidth width: Int, ellipsis: String = "…") -> String {
        fitted(toWidth: width, ellipsis: ellipsis).text
    }

    /// The longest suffix at most `width` columns wide, starting with
    /// `ellipsis` when anything was cut, so the end stays in view (a field
    /// being typed into): `"日本語".truncatedFromStart(toWidth: 4)` is
    /// `"…語"`. The string itself when it fits; `""` when `width` is 0 or less.
    public func truncatedFromStart(toWidth width: Int, ellipsis: String = "…") -> String {
        guard width > 0 else { return "" }
        guard displayWidth > width else { return self }
        let ellipsisWidth = ellipsis.displayWidth
        let room = ellipsisWidth <= width ? width - ellipsisWidth : width
        var start = endIndex, used = 0
        while start > startIndex {
            let previous = index(before: start)
            let cluster = String(self[previous..<start]).displayWidth
            if used + cluster > room { break }
            used += cluster
            start = previous
        }
        return (ellipsisWidth <= width ? ellipsis : "") + self[start...]
    }

    /// The string truncated to `width` columns (with `…`) and padded with
    /// spaces to exactly `width` columns.
    public func padded(toWidth width: Int) -> String {
        let (fitted, used) = fitted(toWidth: width, ellipsis: "…")
        guard used < width else { return fitted }
        return fitted + String(repeating: " ", count: width - used)
    }

    /// `truncated(toWidth:ellipsis:)` and the width of its result.
    func fitted(toWidth width: Int, ellipsis: String) -> (text: String, width: Int) {
        guard width > 0 else { return ("", 0) }
        let ellipsisWidth = ellipsis.displayWidth
        let room = ellipsisWidth <= width ? width - ellipsisWidth : width
        // The end of the longest prefix that fits in `room`, and its width.
        let (cut, cutWidth, used) = ClusterIterator.withClusters(of: self) { clusters in
            var cut = 0, cutWidth = 0, used = 0
            while let cluster = clusters.next() {
                used &+= cluster.width
                if used > width { break }
                if used <= room { (cut, cutWidth) = (cluster.end, used) }
            }
            return (cut, cutWidth, used)
        }
        guard used > width else { return (self, used) }
        let prefix = String(self[..<utf8.index(startIndex, offsetBy: cut)])
        return ellipsisWidth <= width ? (prefix + ellipsis, cutWidth + ellipsisWidth) : (prefix, cutWidth)
    }
}
