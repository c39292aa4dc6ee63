import Configuration
import TerminalUI
import Testing

@Suite("Configuration: theme")
struct ThemeSettingTests {
    @Test("the theme key: a name or a path, with its place for the chooser's warning")
    func values() throws {
        #expect(try read("").theme == nil)
        let named = try read("# the chooser's colours\n\ntheme = \"light\"\n").theme
        #expect(named == ThemeRequest("light", source: "config.toml:3: theme"))
        #expect(named?.reference == .builtIn("light"))
        #expect(try read("theme = \"/etc/switchboard/lab.toml\"\n").theme?.reference == .file("/etc/switchboard/lab.toml"))
        // An unknown name is no error here: the chooser falls back and says so, naming the key.
        #expect(try read("theme = \"solarized\"\n").theme?.argument == "solarized")
    }

    @Test("a theme that is not a string is an error at its line")
    func notAString() {
        #expect(errorText("\ntheme = 3\n") == "config.toml:2: theme: expected a string, found an integer")
        #expect(errorText("[theme]\nname = \"light\"\n") == "config.toml:1: theme: expected a string, found a table")
    }
}
