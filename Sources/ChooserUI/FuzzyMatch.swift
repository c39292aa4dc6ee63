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
/// order, not necessarily together. The way taken is found in a pass or
/// two over the text, as fzf's quick algorithm finds it, never by trying
/// every way:
///
/// - the query whole, where the text holds it: of its occurrences, the one
///   that starts best (the text's start, else a word's, else the first);
/// - otherwise each character at its earliest place after the one before
///   (which ends the match as early as it can), then drawn back from there
///   to the latest place of each before it (the tightest match ending
///   there); of those two ways, the one that scores more (the drawn-back
///   one when they tie).
///
/// That way is scored so:
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

/// Finds and scores the way a query matches texts (see `FuzzyScore`), one
/// text at a time, with the places of the way kept between texts; one per
/// search, never shared. Each text costs a pass or two over it, sixteen
/// bytes at a time; a text shorter than the query is refused at once, so
/// a pasted query costs nothing per text.
final class FuzzyMatcher {
    let query: FuzzyQuery
    /// The query's bytes, and its units, each a slice of them.
    private let needle: UnsafeMutableBufferPointer<UInt8>
    private let units: [UnsafeBufferPointer<UInt8>]
    /// Where each unit was found in the text at hand, and each one's
    /// earliest place (after the one before).
    private let places: UnsafeMutablePointer<Int>, earliest: UnsafeMutablePointer<Int>
    /// The `letters` bits every text that matches has (its ASCII letters
    /// and digits).
    private let required: UInt64
    /// The query's one letter, when it is one ASCII letter: scored from a
    /// text's letters alone.
    private let onlyLetter: UInt8?

    init(_ query: FuzzyQuery) {
        self.query = query
        needle = .allocate(capacity: max(1, query.bytes.count))
        _ = needle.initialize(from: query.bytes)
        units = (0..<query.unitCount).map { [needle] index in
            UnsafeBufferPointer(rebasing: needle[Int(query.bounds[index])..<Int(query.bounds[index + 1])])
        }
        places = .allocate(capacity: max(1, query.unitCount))
        earliest = .allocate(capacity: max(1, query.unitCount))
        required = query.bytes.reduce(0) { $0 | Self.occurs($1) }
        onlyLetter = query.bytes.count == 1 && query.bytes[0] &- 0x61 < 26 ? query.bytes[0] : nil
    }

    /// What `score(_:start:end:letters:)` knows of a text without reading
    /// it: which ASCII letters and digits it has (a bit each), and which
    /// letters start a word in it (where a run earns a bonus).
    static func letters(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> UInt64 {
        var letters: UInt64 = 0
        for position in start..<end {
            let byte = base[position]
            letters |= occurs(byte)
            if byte &- 0x61 < 26, FuzzyScore.bonus(base, position, start: start) > 0 { letters |= 1 << (36 + UInt64(byte &- 0x61)) }
        }
        return letters
    }

    /// The bit of `letters` that says a text has `byte` (0 for a byte not
    /// an ASCII lower-case letter or digit).
    @inline(__always)
    private static func occurs(_ byte: UInt8) -> UInt64 {
        if byte &- 0x61 < 26 { return 1 << UInt64(byte &- 0x61) }
        if byte &- 0x30 < 10 { return 1 << (26 + UInt64(byte &- 0x30)) }
        return 0
    }

    /// `score(_:start:end:)` for a text whose `letters` are known: one that
    /// lacks a letter or digit of the query is refused unread, and one
    /// letter alone is scored unread.
    @inline(__always)
    func score(_ base: UnsafePointer<UInt8>, start: Int, end: Int, letters: UInt64) -> Int32? {
        guard letters & required == required else { return nil }
        if let letter = onlyLetter {
            // Its best place: the text's start, else a word's, else any.
            if base[start] == letter { return FuzzyScore.match + FuzzyScore.textStart }
            return FuzzyScore.match + (letters & (1 << (36 + UInt64(letter &- 0x61))) != 0 ? FuzzyScore.wordStart : 0)
        }
        return run(base, start: start, end: end)
    }

    deinit {
        needle.deallocate()
        places.deallocate()
        earliest.deallocate()
    }

    /// The score of the query in `base[start..<end]`; nil when the text
    /// does not hold the query's characters in order. `base` must be
    /// readable 15 bytes past `end`.
    func score(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> Int32? {
        run(base, start: start, end: end)
    }

    /// The way the query matches `base[start..<end]`: its score, and where
    /// each unit was found (so many bytes long as the unit is); nil when it
    /// does not match.
    func alignment(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> (score: Int32, places: [Int])? {
        guard let score = run(base, start: start, end: end) else { return nil }
        return (score, Array(UnsafeBufferPointer(start: places, count: query.unitCount)))
    }

    /// Finds the way into `places` and returns its score.
    @inline(__always)
    private func run(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> Int32? {
        let count = units.count
        guard count > 0, needle.count <= end - start else { return nil }
        let places = self.places
        // Each unit at its earliest place after the one before: whether the text matches, and where the
        // match can end first. A text that does not match is read once.
        let earliest = self.earliest
        var from = start
        for index in 0..<count {
            let unit = units[index]
            let place = Self.earliestPlace(base, from: from, end: end, unit: unit)
            guard place >= 0 else { return nil }
            earliest[index] = place
            from = place + unit.count
        }
        // The query whole, from where its first unit first is: every unit in a run after the first.
        let whole = Self.bestWhole(base, from: earliest[0], start: start, end: end, needle: UnsafeBufferPointer(needle))
        if whole >= 0 {
            for index in 0..<count { places[index] = whole + Int(query.bounds[index]) }
            return FuzzyScore.match * Int32(count) + FuzzyScore.consecutive * Int32(count - 1) + FuzzyScore.bonus(base, whole, start: start)
        }
        // Back from that end, each unit at its latest place before the one after it.
        var limit = from
        for index in stride(from: count - 1, through: 0, by: -1) {
            let unit = units[index]
            let place = Self.latestPlace(base, from: limit - unit.count, start: start, unit: unit)
            // The forward pass found a place at or before this one, so there is one.
            guard place >= start else { return nil }
            places[index] = place
            limit = place
        }
        // The earliest places, where they score more (a match that starts the name, spread wider).
        let drawnBack = score(of: places, base, start: start), forward = score(of: earliest, base, start: start)
        guard forward > drawnBack else { return drawnBack }
        places.update(from: earliest, count: count)
        return forward
    }

    /// The score of the units found at `places` (see `FuzzyScore`).
    @inline(__always)
    private func score(of places: UnsafeMutablePointer<Int>, _ base: UnsafePointer<UInt8>, start: Int) -> Int32 {
        var score = FuzzyScore.match + FuzzyScore.bonus(base, places[0], start: start)
        for index in 1..<units.count {
            let gap = Int32(places[index] - places[index - 1] - units[index - 1].count)
            score += FuzzyScore.match
                + (gap == 0 ? FuzzyScore.consecutive : FuzzyScore.bonus(base, places[index], start: start) - FuzzyScore.gapStart - (gap - 1))
        }
        return score
    }

    /// Where `needle` occurs whole in `base[from..<end]` and starts best:
    /// the text's start (`start`), else the first place that starts a word,
    /// else the first place; -1 when it does not occur. Sixteen places at a time: a
    /// place is looked at only when both the needle's first and last bytes
    /// are where they would be (Muła's "SIMD-friendly" substring search).
    @inline(__always)
    static func bestWhole(_ base: UnsafePointer<UInt8>, from: Int, start: Int, end: Int, needle: UnsafeBufferPointer<UInt8>) -> Int {
        let n = needle.count
        let lastStart = end - n
        guard lastStart >= from else { return -1 }
        let first = SIMD16<UInt8>(repeating: needle[0]), last = SIMD16<UInt8>(repeating: needle[n - 1])
        var best = -1, bestBonus = Int32.min
        var position = from
        while position <= lastStart {
            let heads = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self)
            let tails = UnsafeRawPointer(base + position + n - 1).loadUnaligned(as: SIMD16<UInt8>.self)
            var hits = bits((heads .== first) .& (tails .== last))
            if lastStart - position < 15 { hits &= (1 << UInt32(lastStart - position + 1)) &- 1 }
            while hits != 0 {
                let place = position + hits.trailingZeroBitCount
                hits &= hits &- 1
                var j = 1
                while j < n - 1 && base[place + j] == needle[j] { j += 1 }
                guard j >= n - 1 else { continue }
                let bonus = FuzzyScore.bonus(base, place, start: start)
                if bonus > bestBonus {
                    (best, bestBonus) = (place, bonus)
                    if bonus >= FuzzyScore.wordStart { return place }
                }
            }
            position += 16
        }
        return best
    }

    /// The earliest place at or after `place` where `unit` begins and ends
    /// by `end`; -1 when there is none. Sixteen bytes at a time; may read
    /// up to 15 bytes past `end`.
    @inline(__always)
    static func earliestPlace(_ base: UnsafePointer<UInt8>, from place: Int, end: Int, unit: UnsafeBufferPointer<UInt8>) -> Int {
        let last = end - unit.count
        let firsts = SIMD16<UInt8>(repeating: unit[0])
        var chunk = place
        while chunk <= last {
            var hits = bits(UnsafeRawPointer(base + chunk).loadUnaligned(as: SIMD16<UInt8>.self) .== firsts)
            if last - chunk < 15 { hits &= (1 << UInt32(last - chunk + 1)) &- 1 }
            while hits != 0 {
                let candidate = chunk + hits.trailingZeroBitCount
                hits &= hits &- 1
                if holds(unit, at: candidate, in: base) { return candidate }
            }
            chunk += 16
        }
        return -1
    }

    /// The latest place at or before `place`, and not before `start`, where
    /// `unit` begins in `base`; -1 when there is none. Sixteen bytes at a
    /// time from the end back, taking the highest lane whose byte is the
    /// unit's first; reads no byte before `base` itself.
    @inline(__always)
    static func latestPlace(_ base: UnsafePointer<UInt8>, from place: Int, start: Int, unit: UnsafeBufferPointer<UInt8>) -> Int {
        let first = unit[0], firsts = SIMD16<UInt8>(repeating: first)
        var top = place
        while top >= start {
            let low = top - 15
            guard low >= 0 else {
                // The first bytes of the whole buffer: one at a time.
                while top >= start {
                    if base[top] == first && holds(unit, at: top, in: base) { return top }
                    top -= 1
                }
                return -1
            }
            var hits = bits(UnsafeRawPointer(base + low).loadUnaligned(as: SIMD16<UInt8>.self) .== firsts)
            if low < start { hits &= ~((1 << UInt32(start - low)) &- 1) }
            while hits != 0 {
                let lane = 31 - hits.leadingZeroBitCount
                hits &= ~(1 << UInt32(lane))
                if holds(unit, at: low + lane, in: base) { return low + lane }
            }
            top = low - 1
        }
        return -1
    }

    /// Whether `unit`, whose first byte is at `place`, is there whole.
    @inline(__always)
    private static func holds(_ unit: UnsafeBufferPointer<UInt8>, at place: Int, in base: UnsafePointer<UInt8>) -> Bool {
        var same = 1
        while same < unit.count && base[place + same] == unit[same] { same += 1 }
        return same == unit.count
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
}
