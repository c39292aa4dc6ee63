import Foundation
import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The selected row of the pane with the focus is filled; the other
/// pane's selected row looks different (its own role, underlined, not
/// filled) in every shipped theme.
@Suite("The selection with and without the focus")
struct SelectionFocusTests {
    static func theme(_ name: String) throws -> Theme {
        try Theme.load(path: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../themes/\(name).toml").standardizedFileURL.path)
    }

    @Test("focused: filled in accountSelected; unfocused: selectionUnfocused, unfilled, unlike it", arguments: Theme.builtInNames)
    func looks(name: String) throws {
        let theme = try Self.theme(name)
        #expect(theme[.selectionUnfocused] != theme[.accountSelected])
        #expect(theme[.selectionUnfocused].attributes.contains(.underline))
        for size in ScreenSnapshotTests.narrow {
            var state = Fixture.several(size: size)
            state.theme = theme
            let layout = ScreenLayout(size)!
            let accountRow = layout.accountList.y, guideRow = layout.guideList.y
            // The accounts pane has the focus.
            var screen = Screen.draw(state)
            #expect(screen[layout.accountList.maxX - 4, accountRow].style == theme[.accountSelected], "filled to the edge")
            #expect(screen[layout.guideList.x + 22, guideRow].style == theme[.selectionUnfocused])
            // Tab: the guide has it.
            _ = Fixture.press(.tab, on: &state)
            screen = Screen.draw(state)
            #expect(screen[layout.accountList.x + 3, accountRow].style == theme[.selectionUnfocused].adding(.bold))
            #expect(screen[layout.accountList.maxX - 4, accountRow].style != theme[.accountSelected], "not filled")
            #expect(screen[layout.guideList.x + 22, guideRow].style == theme[.accountSelected])
        }
    }
}
