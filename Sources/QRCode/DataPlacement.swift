/// Places the final codeword sequence into the symbol (ISO/IEC 18004:2015, 7.7.3).
enum DataPlacement {
    /// Writes `codewords` most significant bit first along the two-module-wide
    /// zigzag, right to left, skipping the vertical timing column and every
    /// function module. Remainder modules stay light (they are masked later).
    static func place(_ codewords: [UInt8], into grid: inout ModuleGrid) {
        let size = grid.size
        let totalBits = codewords.count * 8
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 } // skip the vertical timing pattern
            let upward = (right + 1) & 2 == 0
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !grid.isFunctionModule(x: x, y: y) {
                    guard bitIndex < totalBits else { continue }
                    let byte = codewords[bitIndex >> 3]
                    let value = (byte >> UInt8(7 - (bitIndex & 7))) & 1 == 1
                    grid.setData(x: x, y: y, dark: value)
                    bitIndex += 1
                }
            }
            right -= 2
        }
        precondition(bitIndex == totalBits, "codewords do not fill the symbol")
    }
}
