import ConfigFile

/// The TOML reader: any bytes as a configuration file. Errors are fine;
/// a crash, a hang or a leak is not. Valid documents are also read back
/// through the typed accessors, so their paths run too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTOML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let text = try? ConfigFile.decodeUTF8(bytes, file: "fuzz.toml") else { return 0 }
    if let document = try? TOMLParser.parse(text, file: "fuzz.toml") {
        // Every key found again by name. (Not `document == document`: a
        // TOML float may be nan, which equals nothing, itself included.)
        for key in document.root.keys { precondition(document.root[key] != nil) }
    }
    return 0
}
