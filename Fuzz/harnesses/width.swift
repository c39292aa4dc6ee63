import TerminalUI

/// Display width and clusters: any bytes, decoded as UTF-8 (with
/// replacement characters), measured, truncated from either end, and
/// written into a small buffer, whose cells must add up to its width.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWidth(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let width = text.displayWidth
    precondition(width >= 0)
    for limit in [0, 1, 2, 3, 7] {
        precondition(text.truncated(toWidth: limit).displayWidth <= max(0, limit))
        precondition(text.truncatedFromStart(toWidth: limit).displayWidth <= max(0, limit))
    }
    var buffer = Buffer(size: Size(width: 9, height: 2))
    _ = buffer.write(text, x: 1, y: 0)
    _ = buffer.write(text, x: 0, y: 1, limit: 4)
    for line in buffer.lines { precondition(line.displayWidth <= 9) }
    return 0
}
