import ConfigFile
import TerminalUI

/// Theme files: any UTF-8 text parsed as a theme.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTheme(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let text = try? ConfigFile.decodeUTF8(bytes, file: "fuzz.toml") else { return 0 }
    if let theme = try? Theme.parse(text: text, file: "themes/fuzz.toml") {
        _ = theme.reduced(toColors: 8)
        _ = theme.reduced(toColors: 0)
    }
    return 0
}
