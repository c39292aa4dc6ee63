import ConfigFile
import Foundation
import Testing
@testable import TerminalUI

/// The shipped theme files, read from the source tree.
private enum ShippedThemes {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("../../themes")
        .standardizedFileURL.path

    static func path(_ name: String) -> String { directory + "/\(name).toml" }

    static func text(_ name: String) -> String? { try? String(contentsOfFile: path(name), encoding: .utf8) }
}

/// The configuration error `body` throws, or `nil` if it succeeds.
private func themeError(_ body: () throws -> Void) -> ConfigError? {
    do {
        try body()
        return nil
    } catch {
        return error as? ConfigError
    }
}

private func parseError(_ text: String) -> ConfigError? {
    themeError { _ = try Theme.parse(text: text, file: "mine.toml") }
}

/// A file in a fresh temporary directory holding `text`; the caller removes the directory.
private func temporaryFile(named name: String, _ text: String) throws -> (directory: URL, path: String) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("themetests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: file)
    return (directory, file.path)
}

@Suite struct ShippedThemeFileTests {
    @Test(arguments: Theme.builtInNames)
    func parsesAndNamesEveryRole(name: String) throws {
        let text = try #require(ShippedThemes.text(name), "missing \(ShippedThemes.path(name))")
        let document = try TOMLParser.parse(text, file: "\(name).toml")
        let roles = try document.root.table("roles")
        #expect(Set(roles.keys) == Set(ThemeRole.allCases.map(\.rawValue)), "\(name).toml must give every role")
        let theme = try Theme.parse(text: text, file: "themes/\(name).toml")
        #expect(theme.name == name)
        #expect(theme.styles.count == ThemeRole.allCases.count)
    }

    @Test func defaultFileIsTheBuiltInTheme() throws {
        let theme = try Theme.load(path: ShippedThemes.path("default"))
        #expect(theme == Theme.builtIn)
    }

    @Test func monochromeFileIsTheBuiltInMonochromeAndHasNoColour() throws {
        let theme = try Theme.load(path: ShippedThemes.path("monochrome"))
        #expect(theme == Theme.monochrome)
        for role in ThemeRole.allCases {
            #expect(theme[role].foreground == .default && theme[role].background == .default, "\(role)")
        }
        for role in [ThemeRole.accountSelected, .statusBar, .statusActive, .toast] {
            #expect(theme[role].attributes.contains(.reverse), "\(role)")
        }
        #expect(theme[.muted].attributes == .dim)
        #expect(theme[.title].attributes == .bold && theme[.code].attributes == .bold)
    }

    @Test func highContrastUsesOnlyTheSixteenBasicColours() throws {
        let theme = try Theme.load(path: ShippedThemes.path("high-contrast"))
        for role in ThemeRole.allCases {
            for color in [theme[role].foreground, theme[role].background] {
                if case .palette(let index) = color { #expect(index < 16, "\(role)") }
            }
            #expect(theme[role].foreground != theme[role].background, "\(role)")
        }
        #expect(theme.reduced(toColors: 16) == theme)
    }

    @Test(arguments: Theme.builtInNames)
    func selectionAndStatusBarStandOutFromText(name: String) throws {
        let theme = try Theme.load(path: ShippedThemes.path(name))
        for colors in [256, 16, 8, 0] {
            let reduced = theme.reduced(toColors: colors)
            #expect(reduced[.accountSelected] != reduced[.text], "\(name) at \(colors) colours")
            #expect(reduced[.statusBar] != reduced[.text], "\(name) at \(colors) colours")
            #expect(reduced[.toast] != reduced[.text], "\(name) at \(colors) colours")
        }
    }
}

@Suite struct ThemeParsingTests {
    @Test func parsesEveryColourForm() throws {
        let theme = try Theme.parse(text: """
            name = "mine"
            [roles]
            text = { fg = "default", bg = "default" }
            accountSelected = { fg = "black", bg = "cyan", attrs = ["bold", "underline"] }
            muted = { fg = 244 }
            code = { fg = "#ffcc00", attrs = ["bold"] }
            toast = { fg = "bright-white", bg = "bright-black", attrs = ["reverse", "italic", "dim"] }
            """, file: "mine.toml")
        #expect(theme.name == "mine")
        #expect(theme[.text] == Style())
        #expect(theme[.accountSelected] == Style(foreground: .black, background: .cyan, attributes: [.bold, .underline]))
        #expect(theme[.muted] == Style(foreground: .palette(244)))
        #expect(theme[.code] == Style(foreground: .palette(220), attributes: .bold))
        #expect(theme[.toast] == Style(foreground: .palette(15), background: .palette(8), attributes: [.reverse, .italic, .dim]))
    }

    @Test func omittedRolesTakeTheBuiltInStyle() throws {
        let theme = try Theme.parse(text: "[roles]\nmuted = { fg = \"red\" }\n", file: "themes/partial.toml")
        #expect(theme.name == "partial")
        #expect(theme[.muted] == Style(foreground: .red))
        #expect(theme.styles.count == ThemeRole.allCases.count)
        for role in ThemeRole.allCases where role != .muted {
            #expect(theme.styles[role] == Theme.builtIn[role], "\(role)")
        }
    }

    @Test func acceptsTableHeadersPerRole() throws {
        let theme = try Theme.parse(text: """
            [roles.statusBar]
            fg = "white"
            bg = 24
            """, file: "t.toml")
        #expect(theme[.statusBar] == Style(foreground: .white, background: .palette(24)))
        #expect(theme.name == "t")
    }

    @Test func colourNamesCoverThePaletteInOrder() {
        #expect(Color.named.count == 17)
        #expect(Color.named.first?.name == "default" && Color.named.first?.color == .default)
        for (offset, entry) in Color.named.dropFirst().enumerated() {
            #expect(entry.color == .palette(UInt8(offset)))
        }
        #expect(Color.named.first { $0.name == "bright-black" }?.color == .palette(8))
        #expect(Color.named.first { $0.name == "bright-white" }?.color == .palette(15))
    }
}

@Suite struct ThemeErrorTests {
    @Test func unknownRoleSuggestsTheNearest() throws {
        let error = try #require(parseError("[roles]\ntext = {}\nacountSelected = { fg = 1 }\n"))
        #expect(error.file == "mine.toml" && error.line == 3 && error.key == "roles.acountSelected")
        #expect(error.message.contains("did you mean \"accountSelected\"?"))
    }

    @Test func unknownColourNameSuggestsTheNearest() throws {
        let error = try #require(parseError("\n[roles]\naccountSelected = { fg = \"black\", bg = \"cyna\" }\n"))
        #expect(error.description.hasPrefix("mine.toml:3: roles.accountSelected.bg: unknown colour \"cyna\" (did you mean \"cyan\"?)"))
        let bright = try #require(parseError("[roles]\nmuted = { fg = \"bright_black\" }\n"))
        #expect(bright.key == "roles.muted.fg" && bright.message.contains("did you mean \"bright-black\"?"))
        let far = try #require(parseError("[roles]\nmuted = { fg = \"chartreuse\" }\n"))
        #expect(far.message.hasPrefix("unknown colour \"chartreuse\";") && far.message.contains("#rrggbb"))
    }

    @Test func outOfRangeNumbers() throws {
        let high = try #require(parseError("[roles]\nmuted = { fg = 256 }\n"))
        #expect(high.description == "mine.toml:2: roles.muted.fg: expected an integer from 0 to 255, found 256")
        let low = try #require(parseError("[roles]\n\n[roles.toast]\nbg = -1\n"))
        #expect(low.line == 4 && low.key == "roles.toast.bg")
    }

    @Test func badHex() throws {
        for hex in ["#fff", "#ggcc00", "#ffcc001"] {
            let error = try #require(parseError("[roles]\ncode = { fg = \"\(hex)\" }\n"), "\(hex)")
            #expect(error.line == 2 && error.key == "roles.code.fg", "\(hex)")
            #expect(error.message.contains("#rrggbb"), "\(hex)")
        }
    }

    @Test func unknownAttributeNamesTheElement() throws {
        let error = try #require(parseError("[roles]\n\ntitle = { attrs = [\"bold\", \"undeline\"] }\n"))
        #expect(error.description.hasPrefix("mine.toml:3: roles.title.attrs[1]: unknown attribute \"undeline\" (did you mean \"underline\"?)"))
        #expect(error.message.contains("bold, dim, italic, underline, reverse"))
    }

    @Test func wrongTypes() throws {
        let boolean = try #require(parseError("[roles]\nmuted = { fg = true }\n"))
        #expect(boolean.key == "roles.muted.fg" && boolean.line == 2)
        #expect(boolean.message.hasPrefix("expected a colour, found a boolean"))
        let string = try #require(parseError("[roles]\nmuted = \"red\"\n"))
        #expect(string.description == "mine.toml:2: roles.muted: expected a table, found a string")
        let attrs = try #require(parseError("[roles]\nmuted = { attrs = \"dim\" }\n"))
        #expect(attrs.description == "mine.toml:2: roles.muted.attrs: expected an array, found a string")
        let element = try #require(parseError("[roles]\nmuted = { attrs = [\"dim\", 3] }\n"))
        #expect(element.key == "roles.muted.attrs[1]")
        let roles = try #require(parseError("roles = 3\n"))
        #expect(roles.key == "roles" && roles.line == 1)
        let name = try #require(parseError("name = 3\n"))
        #expect(name.key == "name")
    }

    @Test func unknownKeys() throws {
        let inRole = try #require(parseError("[roles]\nmuted = { fg = 1, bgg = 2 }\n"))
        #expect(inRole.key == "roles.muted.bgg" && inRole.line == 2 && inRole.message.contains("did you mean \"bg\"?"))
        let topLevel = try #require(parseError("nmae = \"x\"\n"))
        #expect(topLevel.key == "nmae" && topLevel.message.contains("did you mean \"name\"?"))
        let table = try #require(parseError("[role]\nmuted = {}\n"))
        #expect(table.key == "role" && table.line == 1 && table.message.contains("did you mean \"roles\"?"))
    }

    @Test func syntaxErrorsAndMissingFilesNameTheFile() throws {
        let syntax = try #require(parseError("[roles]\nmuted = { fg = }\n"))
        #expect(syntax.file == "mine.toml" && syntax.line == 2)
        let missing = try #require(themeError { _ = try Theme.load(path: "/nonexistent/x.toml") })
        #expect(missing.file == "/nonexistent/x.toml" && missing.message.hasPrefix("cannot read file"))
    }
}

@Suite struct PaletteTests {
    @Test func hexMapsToTheNearestEntryAbove15() throws {
        func nearest(_ hex: String) throws -> UInt8 { Palette.nearest(to: try #require(Palette.RGB(hex: hex))) }
        #expect(try nearest("#000000") == 16)
        #expect(try nearest("#ffffff") == 231)
        #expect(try nearest("#FF0000") == 196)
        #expect(try nearest("#00ff00") == 46)
        #expect(try nearest("#0000ff") == 21)
        #expect(try nearest("#5fafd7") == 74)
        #expect(try nearest("#808080") == 244)
        #expect((232...255).contains(try nearest("#444444")))
        #expect((232...255).contains(try nearest("#bcbcbc")))
    }

    @Test func paletteValues() {
        #expect(Palette.rgb(0) == .init(red: 0, green: 0, blue: 0))
        #expect(Palette.rgb(9) == .init(red: 255, green: 0, blue: 0))
        #expect(Palette.rgb(16) == .init(red: 0, green: 0, blue: 0))
        #expect(Palette.rgb(67) == .init(red: 95, green: 135, blue: 175))
        #expect(Palette.rgb(231) == .init(red: 255, green: 255, blue: 255))
        #expect(Palette.rgb(232) == .init(red: 8, green: 8, blue: 8))
        #expect(Palette.rgb(255) == .init(red: 238, green: 238, blue: 238))
        for index in UInt8(16)...255 { #expect(Palette.nearest(to: Palette.rgb(index)) == index) }
        #expect(Palette.RGB(hex: "ffcc00") == nil && Palette.RGB(hex: "#ffcc0") == nil)
    }
}

@Suite struct ThemeReductionTests {
    private func theme(_ styles: [ThemeRole: Style]) -> Theme {
        Theme(name: "probe", styles: styles)
    }

    @Test func eightColours() {
        let reduced = theme([
            .stateRevoked: Style(foreground: .palette(196)),
            .stateAvailable: Style(foreground: .palette(46)),
            .guideChannel: Style(foreground: .palette(21), background: .palette(236)),
            .favourite: Style(foreground: .palette(11)),
            .code: Style(foreground: .palette(3), attributes: .bold),
        ]).reduced(toColors: 8)
        #expect(reduced[.stateRevoked].foreground == .red)
        #expect(reduced[.stateAvailable].foreground == .green)
        #expect(reduced[.guideChannel] == Style(foreground: .blue, background: .black))
        #expect(reduced[.favourite].foreground == .yellow)
        #expect(reduced[.code] == Style(foreground: .yellow, attributes: .bold))
        #expect(reduced.name == "probe")
    }

    @Test func sixteenColours() {
        let reduced = theme([
            .stateRevoked: Style(foreground: .palette(196)),
            .muted: Style(foreground: .palette(244)),
            .statusBar: Style(foreground: .palette(252), background: .palette(236)),
            .code: Style(foreground: .palette(5)),
        ]).reduced(toColors: 16)
        #expect(reduced[.stateRevoked].foreground == .palette(9))
        #expect(reduced[.muted].foreground == .palette(8))
        #expect(reduced[.statusBar] == Style(foreground: .white, background: .black))
        #expect(reduced[.code].foreground == .magenta)
        #expect(theme([.muted: Style(foreground: .palette(244))]).reduced(toColors: 88)[.muted].foreground == .palette(8))
    }

    @Test func middleGreyForegroundBecomesDimDefaultAtEightColours() {
        let reduced = theme([
            .muted: Style(foreground: .palette(244)),
            .guideTime: Style(foreground: .palette(8), attributes: .italic),
            .border: Style(foreground: .palette(236)),
            .keyBarLabel: Style(background: .palette(244)),
        ]).reduced(toColors: 8)
        #expect(reduced[.muted] == Style(attributes: .dim))
        #expect(reduced[.guideTime] == Style(attributes: [.dim, .italic]))
        #expect(reduced[.border].foreground == .black)
        #expect(reduced[.keyBarLabel].background == .white)
    }

    @Test func coincidingColoursKeepTheTextReadable() {
        let reduced = theme([
            .toast: Style(foreground: .palette(231), background: .palette(230)),
            .statusBar: Style(foreground: .palette(17), background: .palette(16)),
            .text: Style(foreground: .white, background: .white),
        ])
        #expect(reduced.reduced(toColors: 8)[.toast] == Style(foreground: .black, background: .white))
        #expect(reduced.reduced(toColors: 8)[.statusBar] == Style(foreground: .white, background: .black))
        #expect(reduced.reduced(toColors: 16)[.statusBar] == Style(foreground: .palette(15), background: .black))
        #expect(reduced.reduced(toColors: 8)[.text] == Style(foreground: .white, background: .white))
    }

    @Test func noColoursKeepsAttributesAndReversesBars() {
        let reduced = Theme.builtIn.reduced(toColors: 0)
        for role in ThemeRole.allCases {
            #expect(reduced[role].foreground == .default && reduced[role].background == .default, "\(role)")
            #expect(reduced[role].attributes.isSuperset(of: Theme.builtIn[role].attributes), "\(role)")
        }
        #expect(reduced[.accountSelected].attributes == [.bold, .reverse])
        #expect(reduced[.statusBar].attributes == .reverse)
        #expect(reduced[.statusActive].attributes == [.bold, .reverse])
        #expect(reduced[.toast].attributes == .reverse)
        #expect(reduced[.muted].attributes == [])
        #expect(Theme.builtIn.reduced(toColors: 2) == reduced)
    }

    @Test func enoughColoursChangesNothing() {
        #expect(Theme.builtIn.reduced(toColors: 256) == Theme.builtIn)
        #expect(Theme.builtIn.reduced(toColors: 1 << 24) == Theme.builtIn)
    }

    @Test(arguments: Theme.builtInNames, [8, 16])
    func shippedThemesFitTheirLimit(name: String, colors: Int) throws {
        let reduced = try Theme.load(path: ShippedThemes.path(name)).reduced(toColors: colors)
        for role in ThemeRole.allCases {
            for color in [reduced[role].foreground, reduced[role].background] {
                if case .palette(let index) = color { #expect(Int(index) < colors, "\(name) \(role)") }
            }
        }
    }
}

@Suite struct ThemeSelectionTests {
    private let builtIns: (String) -> String? = { ShippedThemes.text($0) }

    @Test func referencesAreNamesOrPaths() {
        #expect(ThemeReference("light") == .builtIn("light"))
        #expect(ThemeReference("high-contrast") == .builtIn("high-contrast"))
        #expect(ThemeReference("mine.toml") == .file("mine.toml"))
        #expect(ThemeReference("./light") == .file("./light"))
        #expect(ThemeReference("/etc/switchboard/t") == .file("/etc/switchboard/t"))
    }

    @Test func defaultWithoutRequestOrNoColor() {
        for environment in [[:], ["NO_COLOR": ""], ["TERM": "xterm"]] {
            let selection = ThemeSelection.resolve(requested: nil, environment: environment, builtInText: builtIns)
            #expect(selection == ThemeSelection(theme: Theme.builtIn), "\(environment)")
        }
    }

    @Test func noColorSelectsMonochromeUnlessAThemeIsRequested() {
        let plain = ThemeSelection.resolve(requested: nil, environment: ["NO_COLOR": "1"], builtInText: builtIns)
        #expect(plain.theme == Theme.monochrome && plain.warning == nil)
        let explicit = ThemeSelection.resolve(requested: "light", environment: ["NO_COLOR": "1"], builtInText: builtIns)
        #expect(explicit.theme.name == "light" && explicit.warning == nil)
        #expect(explicit.theme[.accountSelected].background == .palette(25))
    }

    @Test(arguments: Theme.builtInNames)
    func namesLoadTheShippedFiles(name: String) throws {
        let selection = ThemeSelection.resolve(requested: name, environment: [:], builtInText: builtIns)
        #expect(selection.warning == nil)
        #expect(selection.theme == (try Theme.load(path: ShippedThemes.path(name))))
    }

    @Test func pathsLoadFiles() throws {
        let (directory, path) = try temporaryFile(named: "sunset.toml", "[roles]\ntitle = { fg = \"#ff8700\" }\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        var asked: [String] = []
        let selection = ThemeSelection.resolve(requested: path, environment: ["NO_COLOR": "1"]) { name in
            asked.append(name)
            return nil
        }
        #expect(asked.isEmpty)
        #expect(selection.warning == nil)
        #expect(selection.theme.name == "sunset")
        #expect(selection.theme[.title] == Style(foreground: .palette(208)))
    }

    @Test func badFileWarnsAndFallsBack() throws {
        let (directory, path) = try temporaryFile(named: "broken.toml", "name = \"broken\"\n[roles]\ntitle = { fg = \"bleu\" }\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let selection = ThemeSelection.resolve(requested: path, environment: [:], builtInText: builtIns)
        #expect(selection.theme == Theme.builtIn)
        let warning = try #require(selection.warning)
        #expect(warning.hasPrefix("\(path):3: roles.title.fg: unknown colour \"bleu\" (did you mean \"blue\"?)"))
        #expect(warning.hasSuffix("(using the default theme)"))
        let noColor = ThemeSelection.resolve(requested: path, environment: ["NO_COLOR": "yes"], builtInText: builtIns)
        #expect(noColor.theme == Theme.monochrome && noColor.warning != nil)
        let missing = ThemeSelection.resolve(requested: "/nonexistent/dir/t.toml", environment: [:], builtInText: builtIns)
        #expect(missing.theme == Theme.builtIn)
        #expect(missing.warning?.hasPrefix("/nonexistent/dir/t.toml: cannot read file") == true)
    }

    @Test func unknownNameListsTheShippedThemes() throws {
        let error = try #require(themeError { _ = try Theme.resolve("ligth", builtInText: builtIns) })
        #expect(error.description == "--theme: unknown theme \"ligth\" (did you mean \"light\"?); available themes: default, light, high-contrast, monochrome")
        let selection = ThemeSelection.resolve(requested: "solarized", source: "config.toml", environment: [:], builtInText: builtIns)
        #expect(selection.theme == Theme.builtIn)
        #expect(selection.warning == "config.toml: unknown theme \"solarized\"; available themes: default, light, high-contrast, monochrome (using the default theme)")
    }

    @Test func brokenShippedFileNamesIt() throws {
        let selection = ThemeSelection.resolve(requested: "light", environment: [:]) { _ in "[roles]\nmuted = { fg = 999 }\n" }
        #expect(selection.theme == Theme.builtIn)
        #expect(selection.warning?.hasPrefix("themes/light.toml:2: roles.muted.fg: expected an integer from 0 to 255") == true)
    }

    @Test func missingShippedTextFallsBackToCompiledThemes() throws {
        #expect(try Theme.resolve("default") { _ in nil } == Theme.builtIn)
        #expect(try Theme.resolve("monochrome") { _ in nil } == Theme.monochrome)
        let error = try #require(themeError { _ = try Theme.resolve("light") { _ in nil } })
        #expect(error.description == "themes/light.toml: the built-in theme file is missing")
    }

    @Test func cyclingVisitsEveryShippedThemeInOrder() {
        #expect(Theme.builtInNames == ["default", "light", "high-contrast", "monochrome"])
        var name = "default"
        var visited: [String] = []
        for _ in Theme.builtInNames {
            visited.append(name)
            name = Theme.builtInName(after: name)
        }
        #expect(visited == Theme.builtInNames && name == "default")
        #expect(Theme.builtInName(after: "/home/ada/mine.toml") == "default")
    }
}
