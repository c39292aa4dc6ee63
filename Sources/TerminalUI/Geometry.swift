/// A width and height in terminal cells.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    public var description: String { "\(width)×\(height)" }
}

/// A rectangle of cells; `x`, `y` is the top-left corner.
public struct Rect: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }

    /// The rectangle shrunk by `dx` columns and `dy` rows on each side.
    public func inset(dx: Int = 1, dy: Int = 1) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width - 2 * dx, height: height - 2 * dy)
    }

    /// The overlap of two rectangles (empty when they do not meet).
    public func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        return Rect(x: left, y: top, width: min(maxX, other.maxX) - left, height: min(maxY, other.maxY) - top)
    }

    /// Splits off `count` rows at the top (negative: at the bottom).
    public func splitRows(_ count: Int) -> (first: Rect, rest: Rect) {
        if count >= 0 {
            let n = min(count, height)
            return (Rect(x: x, y: y, width: width, height: n), Rect(x: x, y: y + n, width: width, height: height - n))
        }
        let n = min(-count, height)
        return (Rect(x: x, y: maxY - n, width: width, height: n), Rect(x: x, y: y, width: width, height: height - n))
    }

    /// Splits off `count` columns at the left (negative: at the right).
    public func splitColumns(_ count: Int) -> (first: Rect, rest: Rect) {
        if count >= 0 {
            let n = min(count, width)
            return (Rect(x: x, y: y, width: n, height: height), Rect(x: x + n, y: y, width: width - n, height: height))
        }
        let n = min(-count, width)
        return (Rect(x: maxX - n, y: y, width: n, height: height), Rect(x: x, y: y, width: width - n, height: height))
    }

    /// A rectangle of at most `size` centred in this one.
    public func centered(_ size: Size) -> Rect {
        let w = min(size.width, width), h = min(size.height, height)
        return Rect(x: x + (width - w) / 2, y: y + (height - h) / 2, width: w, height: h)
    }
}
