/// An append-only sequence of bits, most significant bit first.
struct BitBuffer: Sendable, Equatable {
    /// Packed bits; the last byte may be partially used.
    private(set) var bytes: [UInt8] = []
    /// Number of bits appended so far.
    private(set) var count = 0

    /// Appends the low `length` bits of `value`, most significant first.
    mutating func append(_ value: Int, length: Int) {
        precondition(length >= 0 && length <= 31 && value >> length == 0, "value does not fit")
        for shift in stride(from: length - 1, through: 0, by: -1) {
            appendBit((value >> shift) & 1 == 1)
        }
    }

    /// Appends a single bit.
    mutating func appendBit(_ bit: Bool) {
        if count % 8 == 0 { bytes.append(0) }
        if bit { bytes[count / 8] |= 0x80 >> UInt8(count % 8) }
        count += 1
    }
}
