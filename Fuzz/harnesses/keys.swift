import CNcurses
import TerminalUI

/// The key decoder: what `wget_wch` can hand it (a result and a code),
/// and mouse reports, from the input's bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeys(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var index = 0
    func next() -> Int32? {
        guard index + 4 <= size else { return nil }
        defer { index += 4 }
        return (0..<4).reduce(Int32(0)) { $0 << 8 | Int32(data[index + $1]) }
    }
    while let selector = next(), let code = next() {
        let result: Int32 = selector & 1 == 0 ? OK : KEY_CODE_YES
        _ = KeyDecoder.event(result: result, code: code, mouse: { nil })
        _ = KeyDecoder.character(UInt32(bitPattern: code))
        _ = KeyDecoder.functionKey(code)
        if let x = next(), let y = next() {
            _ = KeyDecoder.mouse(state: mmask_t(UInt32(bitPattern: selector)), x: x, y: y)
        }
    }
    return 0
}
