/// Builds the dotted key paths shown in error messages, such as `providers."self hosted".kind`.
enum KeyPath {
    /// `parent.key`, quoting `key` when it is not a bare key.
    static func join(_ parent: String, _ key: String) -> String {
        parent.isEmpty ? quoted(key) : parent + "." + quoted(key)
    }

    /// `path[index]`, the path of an array element.
    static func element(_ path: String, _ index: Int) -> String {
        "\(path)[\(index)]"
    }

    /// `key` as written in TOML: bare if possible, otherwise as a basic string.
    static func quoted(_ key: String) -> String {
        if !key.isEmpty && key.utf8.allSatisfy(ASCII.isBareKey) { return key }
        var text = "\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    text += "\\u" + ASCII.hex(scalar.value, digits: 4)
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        return text + "\""
    }
}
