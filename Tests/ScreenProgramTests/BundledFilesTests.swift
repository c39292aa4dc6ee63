import ChooserUI
import Foundation
import TerminalUI
import Testing

/// The files compiled into the program are the ones in the repository:
/// `themes/*.toml` (the source of truth for the built-in themes) and the
/// guide's listings.
@Suite("files compiled into the program")
struct BundledFilesTests {
    static let top = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardizedFileURL.path

    @Test("every built-in theme is compiled in, byte for byte as in themes/", arguments: Theme.builtInNames)
    func themes(name: String) throws {
        let file = try String(contentsOfFile: Self.top + "/themes/\(name).toml", encoding: .utf8)
        #expect(BundledFiles.themeText(name) == file)
    }

    @Test("themes/ holds exactly the built-in themes")
    func noOtherThemes() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.top + "/themes").filter { $0.hasSuffix(".toml") }
        #expect(files.sorted() == Theme.builtInNames.map { "\($0).toml" }.sorted())
        #expect(BundledFiles.themeText("nonexistent") == nil)
    }

    @Test("the guide's listings are compiled in and parse")
    func guide() throws {
        let file = try String(contentsOfFile: Self.top + "/Sources/ChooserUI/Resources/guide.toml", encoding: .utf8)
        #expect(BundledFiles.guideText == file)
        #expect(try Guide.bundled().shows.count > 10)
    }
}
