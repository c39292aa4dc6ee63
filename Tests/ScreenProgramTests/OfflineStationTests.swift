import StationConfig
import Testing
@testable import ChooserUI
import SwitchboardCore
import TerminalUI

/// A chooser or station whose shared store's server went away: it says so
/// and refuses to change anything, never pretending; once the server is
/// back it reads the list again.
@Suite("the store offline")
struct OfflineStationTests {
    static let size = Size(width: 100, height: 30)
    static let detail = "postgresql://switchboard@db.example.org:5432/fleet: connection to the server lost"

    @Test("the status bar says so; switching, signing in and out are refused with the reason; coming back reloads", arguments: [false, true])
    func offlineAndBack(station: Bool) {
        let chooser = Fixture.state(size: Self.size, accounts: [Fixture.ada, Fixture.grace], active: Fixture.ada)
        if station {
            var state = Station(chooser, settings: StationSettings(greeting: "Lab 3"))
            check(&state, draw: StationScreen.draw)
        } else {
            var state = chooser
            check(&state, draw: Screen.draw)
        }
    }

    /// The same rules for the chooser and a station.
    private func check<Layer: ChooserLayer>(_ state: inout Layer, draw: (Layer) -> Buffer) where Layer.LayerEffect: Equatable {
        func reduce(_ action: Action) -> [Effect] {
            state.reduce(Layer.chooser(action), at: state.chooser.now).compactMap(Layer.chooserEffect)
        }
        #expect(reduce(.storeOffline(Self.detail)).isEmpty)
        #expect(draw(state).lines.first?.contains("⚠ Station offline — retrying") == true, "\(draw(state).lines.first ?? "")")
        for key: Key in [.enter, .character("a"), .character("s")] {
            #expect(reduce(.input(.key(key))).isEmpty, "\(key) does nothing while offline")
            #expect(state.chooser.dialog == nil)
        }
        #expect(state.chooser.toasts.last?.text.hasPrefix("Station offline — retrying") == true, "\(state.chooser.toasts.map(\.text))")
        #expect(draw(state).lines.last?.contains("Station offline — retrying") == true, "the toast has the key bar's row")
        _ = reduce(.tick(state.chooser.now.advanced(by: AppState.toastSeconds + 1)))
        let keyBar = draw(state).lines.last ?? ""
        #expect(keyBar.contains("⏎ switch"), "dimmed, still shown once the toast has gone: it will work again")
        // Still offline on the next failed try: nothing new to do.
        #expect(reduce(.storeOffline(Self.detail)).isEmpty)
        #expect(reduce(.storeOffline(nil)) == [.reload])
        #expect(draw(state).lines.first?.contains("offline") == false)
        #expect(reduce(.input(.key(.character("s")))).contains(.signOut(.asked)))
    }

    @Test("the offline status bar, as golden text", arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func snapshot(size: Size) {
        var state = Fixture.state(size: size, accounts: [Fixture.ada, Fixture.grace], active: Fixture.ada)
        _ = state.reduce(.storeOffline(Self.detail))
        Snapshot.check(Screen.draw(state), "offline-\(size.width)x\(size.height)")
    }
}
