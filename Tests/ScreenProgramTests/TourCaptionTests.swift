import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// The tour's caption has the row above the key bar to itself: the panes
/// end above it, their bottom border whole.
@Suite("demo tour: the caption's row")
struct TourCaptionTests {
    @Test("the caption sits between the panes' bottom border and the key bar", arguments: ScreenSnapshotTests.narrow)
    func captionBelowPanes(size: Size) {
        let chooser = AppState(session: SessionKey("pts/1")!, size: size, now: TourTests.start, guide: Fixture.guide, theme: .builtIn,
                               providers: TourTests.providers)
        var tour = Tour(chooser, tour: TourState(script: TourState.script(first: "demo", second: "demo-lab", expiry: 4), beat: 1, idle: 30))
        _ = tour.reduce(.loaded(AccountList([Fixture.ada, Fixture.grace], protected: []), active: .anonymous))
        let lines = TourScreen.draw(tour).lines
        #expect(lines[size.height - 2].hasPrefix(" 1/8"), "the caption: \(lines[size.height - 2])")
        #expect(lines[size.height - 3].hasPrefix("└") && lines[size.height - 3].hasSuffix("┘"), "the panes' border: \(lines[size.height - 3])")
        Snapshot.check(TourScreen.draw(tour), ScreenSnapshotTests.name("tour-caption", size))
    }
}
