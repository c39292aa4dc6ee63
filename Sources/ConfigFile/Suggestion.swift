/// Near-miss suggestions for misspelt keys and values.
public enum Suggestion {
    /// The candidate closest to `word` by edit distance, ignoring case and treating `-` as `_`,
    /// if it is close enough to be a likely typo.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let target = normalized(word)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, normalized(candidate))
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let limit = max(1, min(3, target.count / 3))
        return best.distance <= limit ? best.candidate : nil
    }

    private static func normalized(_ word: String) -> [Character] {
        Array(word.lowercased().replacingDashes())
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = row
        }
        return previous[b.count]
    }
}

private extension String {
    func replacingDashes() -> String {
        String(map { $0 == "-" ? "_" : $0 })
    }
}
