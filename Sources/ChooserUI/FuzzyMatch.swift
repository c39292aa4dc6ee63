/// A filter query as the matcher reads it: lower-cased UTF-8, cut into
/// units of one Unicode scalar each. A unit matches whole or not at all,
/// so the bytes of an "é" are never found scattered over other letters.
struct FuzzyQuery: Sendable {
    /// The query, lower-cased, as UTF-8.
    let bytes: [UInt8]
    /// Where each unit starts in `bytes`, then `bytes.count`.
    let bounds: [Int32]

    init(_ query: String) {
        var query = query
        // ASCII (most queries) is lower-cased byte by byte, as the index's text is.
        let ascii = query.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } ? bytes.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 } : nil }
        bytes = ascii ?? Array(query.lowercased().utf8)
        var bounds: [Int32] = []
        bounds.reserveCapacity(bytes.count + 1)
        // A continuation byte (10xxxxxx) belongs to the unit before it.
        for (offset, byte) in bytes.enumerated() where byte & 0xC0 != 0x80 { bounds.append(Int32(offset)) }
        bounds.append(Int32(bytes.count))
        self.bounds = bounds
    }

    /// How many units (scalars) it has.
    var unitCount: Int { bounds.count - 1 }
    var isEmpty: Bool { bytes.isEmpty }
}

/// How a query matches a text, as fzf matches: the query's characters in
/// order, not necessarily together. Of the ways they can be found, the
/// best is taken, scored so:
///
/// - every character found: `match`;
/// - a character right after the one before it (in a run): `consecutive`;
/// - a run that starts the text (the account's name): `textStart`; one
///   that starts a word (after a space, `.`, `@`, `-`, a field's start…):
///   `wordStart`;
/// - the gap before a run: `gapStart` for its first byte, one less for
///   each further byte, so a match spread wider scores less.
///
/// A consecutive character is worth more than the most a gap can bring
/// (`consecutive` > `textStart` + `wordStart` − `gapStart`), so a text
/// holding the query whole always scores above one holding it only
/// scattered.
enum FuzzyScore {
    static let match: Int32 = 16
    static let consecutive: Int32 = 16
    static let textStart: Int32 = 10
    static let wordStart: Int32 = 8
    static let gapStart: Int32 = 3
    /// Less than any score a match can have.
    static let none = Int32.min / 4

    /// What a run starting at `position` earns for where it starts.
    @inline(__always)
    static func bonus(_ base: UnsafePointer<UInt8>, _ position: Int, start: Int) -> Int32 {
        if position == start { return textStart }
        let before = base[position - 1]
        // Letters (a-z; the text is lower-cased) and digits carry a word on; other ASCII ends it; any byte of a
        // multibyte character counts as a letter.
        let wordGoesOn = before >= 0x80 || before &- 0x61 < 26 || before &- 0x30 < 10 || before &- 0x41 < 26
        return wordGoesOn ? 0 : wordStart
    }
}

/// Scores texts against one query (see `FuzzyScore`), one text at a time,
/// with scratch rows it keeps between texts; one per search, never shared.
///
/// The best way is found by dynamic programming over the places each unit
/// occurs, not over every byte: for each unit in turn, its occurrences
/// (found sixteen bytes at a time) between the earliest place the unit
/// before it was found and the latest place it can take with the rest of
/// the query still after it (found first, from the end back, which also
/// refuses a text that does not match), each with the best score of the
/// query so far ending there. A text shorter than the query is refused at
/// once, so a pasted query costs nothing per text.
final class FuzzyMatcher {
    let query: FuzzyQuery
    /// Occurrences found: their places in the text and their scores, row
    /// after row (one row per unit).
    private var places: UnsafeMutablePointer<Int32>
    private var scores: UnsafeMutablePointer<Int32>
    private var capacity: Int
    /// Where each row starts in `places`, and how many it has (`alignment` keeps every row).
    private var rowStarts: [Int] = [], rowCounts: [Int] = []
    /// The latest place each unit can be found in the text at hand.
    private let latest: UnsafeMutablePointer<Int>

    init(_ query: FuzzyQuery) {
        self.query = query
        capacity = 256
        places = .allocate(capacity: capacity)
        scores = .allocate(capacity: capacity)
        latest = .allocate(capacity: max(1, query.unitCount))
        rowStarts = Array(repeating: 0, count: query.unitCount)
        rowCounts = Array(repeating: 0, count: query.unitCount)
    }

    deinit {
        latest.deallocate()
        places.deallocate()
        scores.deallocate()
    }

    /// The best score of the query in `base[start..<end]`; nil when the
    /// text does not hold the query's characters in order. `base` must be
    /// readable 15 bytes past `end`.
    func score(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> Int32? {
        run(base, start: start, end: end, keepRows: false)?.score
    }

    /// The best way the query matches `base[start..<end]`: its score, and
    /// where each unit was found (so many bytes long as the unit is); nil
    /// when it does not match.
    func alignment(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> (score: Int32, places: [Int])? {
        guard let (score, last) = run(base, start: start, end: end, keepRows: true) else { return nil }
        let units = query.unitCount
        var found = Array(repeating: 0, count: units)
        var entry = last
        found[units - 1] = Int(places[entry])
        var wanted = score
        for unit in stride(from: units - 1, to: 0, by: -1) {
            let place = Int32(found[unit])
            let length = query.bounds[unit] - query.bounds[unit - 1]
            let bonus = FuzzyScore.bonus(base, Int(place), start: start)
            var previous = -1
            // Consecutive first, then the nearest gap that gives the score.
            for candidate in stride(from: rowStarts[unit - 1] + rowCounts[unit - 1] - 1, through: rowStarts[unit - 1], by: -1) {
                let before = places[candidate], earlier = scores[candidate]
                if before + length == place, earlier + FuzzyScore.match + FuzzyScore.consecutive == wanted {
                    previous = candidate
                    break
                }
                if before + length < place,
                   earlier + before + length + FuzzyScore.match + bonus - place - (FuzzyScore.gapStart - 1) == wanted {
                    previous = candidate
                    break
                }
            }
            // Every score has a way to it; were one not found, nothing is marked rather than the wrong characters.
            guard previous >= 0 else {
                assertionFailure("a score with no way to it")
                return nil
            }
            entry = previous
            found[unit - 1] = Int(places[entry])
            wanted = scores[entry]
        }
        return (score, found)
    }

    /// Fills the rows; returns the best score and the entry of the last row
    /// that has it (the first such).
    private func run(_ base: UnsafePointer<UInt8>, start: Int, end: Int, keepRows: Bool) -> (score: Int32, entry: Int)? {
        let units = query.unitCount, length = end - start
        guard units > 0, query.bytes.count <= length else { return nil }
        let rowCapacity = length + 1
        if !keepRows { reserve(2 * rowCapacity, keeping: 0) }
        return query.bytes.withUnsafeBufferPointer { needle in
            query.bounds.withUnsafeBufferPointer { bounds in
                // The latest place each unit can take with the ones after it still found after it, from
                // the end back: a byte at a time, stopping at each unit, so one pass at most. A text
                // without the query's characters in order is refused here.
                let latest = self.latest
                var limit = end
                for unit in stride(from: units - 1, through: 0, by: -1) {
                    let unitStart = Int(bounds[unit]), unitLength = Int(bounds[unit + 1]) - unitStart
                    let first = needle[unitStart]
                    var place = limit - unitLength
                    search: while place >= start {
                        if base[place] == first {
                            var same = 1
                            while same < unitLength && base[place + same] == needle[unitStart + same] { same += 1 }
                            if same == unitLength { break search }
                        }
                        place -= 1
                    }
                    guard place >= start else { return nil }
                    latest[unit] = place
                    limit = place
                }
                var rowStart = 0, previousStart = 0, previousCount = 0
                var best = FuzzyScore.none, bestEntry = -1
                for unit in 0..<units {
                    let unitStart = Int(bounds[unit]), unitLength = Int(bounds[unit + 1]) - unitStart
                    let previousLength = unit > 0 ? Int32(unitStart - Int(bounds[unit - 1])) : 0
                    if keepRows {
                        rowStart = unit == 0 ? 0 : previousStart + previousCount
                        reserve(rowStart + rowCapacity, keeping: rowStart)
                    } else {
                        rowStart = (unit & 1) * rowCapacity
                    }
                    let (places, scores) = (self.places, self.scores)
                    // The unit fits after the earliest place of the one before, with room for those after it.
                    let low = unit == 0 ? start : Int(places[previousStart]) + Int(previousLength)
                    let high = latest[unit]
                    var count = 0
                    var gapBest = FuzzyScore.none, next = previousStart, previousEnd = previousStart + previousCount
                    let first = needle[unitStart]
                    let firsts = SIMD16<UInt8>(repeating: first)
                    var chunk = low
                    while chunk <= high {
                        var hits = Self.bits(UnsafeRawPointer(base + chunk).loadUnaligned(as: SIMD16<UInt8>.self) .== firsts)
                        if high - chunk < 15 { hits &= (1 << (high - chunk + 1)) - 1 }
                        while hits != 0 {
                            let place = chunk + hits.trailingZeroBitCount
                            hits &= hits - 1
                            var same = 1
                            while same < unitLength && base[place + same] == needle[unitStart + same] { same += 1 }
                            guard same == unitLength else { continue }
                            var score: Int32
                            if unit == 0 {
                                score = FuzzyScore.match + FuzzyScore.bonus(base, place, start: start)
                            } else {
                                let here = Int32(place)
                                // Occurrences of the unit before that end before a gap of one byte or more.
                                while next < previousEnd && places[next] + previousLength <= here - 1 {
                                    gapBest = max(gapBest, scores[next] + places[next] + previousLength)
                                    next += 1
                                }
                                score = FuzzyScore.none
                                if gapBest > FuzzyScore.none {
                                    score = gapBest + FuzzyScore.match + FuzzyScore.bonus(base, place, start: start) - here - (FuzzyScore.gapStart - 1)
                                }
                                if next < previousEnd && places[next] + previousLength == here {
                                    score = max(score, scores[next] + FuzzyScore.match + FuzzyScore.consecutive)
                                }
                                guard score > FuzzyScore.none else { continue }
                            }
                            places[rowStart + count] = Int32(place)
                            scores[rowStart + count] = score
                            count += 1
                        }
                        chunk += 16
                    }
                    guard count > 0 else { return nil }
                    if keepRows {
                        rowStarts[unit] = rowStart
                        rowCounts[unit] = count
                    }
                    (previousStart, previousCount) = (rowStart, count)
                }
                for entry in previousStart..<previousStart + previousCount where scores[entry] > best {
                    (best, bestEntry) = (scores[entry], entry)
                }
                return (best, bestEntry)
            }
        }
    }

    /// One bit per lane of `mask` (lane 0 the lowest), as x86's
    /// `pmovmskb` gives: each lane's byte (0 or 1) gathered into the top
    /// byte of each half by one multiplication.
    @inline(__always)
    static func bits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt32 {
        let ones = unsafeBitCast(mask, to: SIMD16<UInt8>.self) & SIMD16(repeating: 1)
        let halves = unsafeBitCast(ones, to: SIMD2<UInt64>.self)
        let gather: UInt64 = 0x0102_0408_1020_4080
        return UInt32(truncatingIfNeeded: (halves[0] &* gather) >> 56 | ((halves[1] &* gather) >> 56) << 8)
    }

    /// Room for `count` occurrences, keeping the first `kept` found.
    private func reserve(_ count: Int, keeping kept: Int) {
        guard count > capacity else { return }
        let grown = max(count, 2 * capacity)
        let newPlaces = UnsafeMutablePointer<Int32>.allocate(capacity: grown)
        let newScores = UnsafeMutablePointer<Int32>.allocate(capacity: grown)
        newPlaces.initialize(from: places, count: kept)
        newScores.initialize(from: scores, count: kept)
        places.deallocate()
        scores.deallocate()
        (places, scores, capacity) = (newPlaces, newScores, grown)
    }
}
