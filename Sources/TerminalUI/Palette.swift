/// The xterm 256-colour palette as RGB, and nearest-colour searches in it.
///
/// Entries 0–15 use xterm's default values (terminals vary; these are the
/// usual reference). 16–231 are the 6×6×6 cube with levels 0, 95, 135, 175,
/// 215, 255; 232–255 the greys 8, 18, …, 238.
public enum Palette {
    /// An RGB triple, 0–255 per channel.
    public struct RGB: Hashable, Sendable {
        public var red: UInt8, green: UInt8, blue: UInt8

        public init(red: UInt8, green: UInt8, blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// Parses `#rrggbb` (either case); `nil` for anything else.
        public init?(hex: String) {
            let digits = Array(hex.utf8)
            guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
            var channels: [UInt8] = []
            for index in stride(from: 1, to: 7, by: 2) {
                guard let high = Self.hexValue(digits[index]), let low = Self.hexValue(digits[index + 1]) else { return nil }
                channels.append(high << 4 | low)
            }
            self.init(red: channels[0], green: channels[1], blue: channels[2])
        }

        /// Whether all three channels are equal.
        var isGrey: Bool { red == green && green == blue }

        /// The squared Euclidean distance to `other`.
        func distance(to other: RGB) -> Int {
            let red = Int(self.red) - Int(other.red)
            let green = Int(self.green) - Int(other.green)
            let blue = Int(self.blue) - Int(other.blue)
            return red * red + green * green + blue * blue
        }

        private static func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
    }

    private static let basic: [RGB] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
        (255, 255, 255),
    ].map { RGB(red: $0.0, green: $0.1, blue: $0.2) }

    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The RGB value xterm shows for palette entry `index`.
    public static func rgb(_ index: UInt8) -> RGB {
        switch index {
        case 0..<16:
            return basic[Int(index)]
        case 16..<232:
            let cube = Int(index) - 16
            return RGB(red: cubeLevels[cube / 36], green: cubeLevels[cube / 6 % 6], blue: cubeLevels[cube % 6])
        default:
            let grey = 8 + 10 * (index - 232)
            return RGB(red: grey, green: grey, blue: grey)
        }
    }

    /// The entry of 16–255 nearest to `rgb`. Entries 0–15 are never chosen,
    /// since terminals redefine them; ties go to the lower entry.
    public static func nearest(to rgb: RGB) -> UInt8 {
        nearest(to: rgb, among: 16...255)
    }

    /// The entry in `candidates` nearest to `rgb`; ties go to the lower entry.
    public static func nearest(to rgb: RGB, among candidates: ClosedRange<UInt8>) -> UInt8 {
        var best = candidates.lowerBound
        var bestDistance = Int.max
        for index in candidates {
            let distance = Palette.rgb(index).distance(to: rgb)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }
}
