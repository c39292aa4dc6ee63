import ConfigFile
import Configuration

/// config.toml's text read as `config.toml`, as the program reads a file.
func read(_ text: String) throws(ConfigError) -> SwitchboardConfiguration {
    try SwitchboardConfiguration.parse(text: text, file: "config.toml")
}

/// The error `text` gives, as one line, or "no error".
func errorText(_ text: String) -> String {
    do {
        _ = try read(text)
        return "no error"
    } catch {
        return error.description
    }
}
