import StationSettings
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
        var state = Fixture.state(size: Self.size, accounts: [Fixture.ada, Fixture.grace], active: Fixture.ada)
        if station { state.enterKiosk(KioskSettings(greeting: "Lab 3")) }
        #expect(state.reduce(.storeOffline(Self.detail)).isEmpty)
        #expect(Screen.draw(state).lines.first?.contains("⚠ Station offline — retrying") == true, "\(Screen.draw(state).lines.first ?? "")")
        for key: Key in [.enter, .character("a"), .character("s")] {
            #expect(state.reduce(.input(.key(key))).isEmpty, "\(key) does nothing while offline")
            #expect(state.dialog == nil)
        }
        #expect(state.toasts.last?.text.hasPrefix("Station offline — retrying") == true, "\(state.toasts.map(\.text))")
        let keyBar = Screen.draw(state).lines.last ?? ""
        #expect(keyBar.contains("⏎ switch"), "dimmed, still shown: it will work again")
        // Still offline on the next failed try: nothing new to do.
        #expect(state.reduce(.storeOffline(Self.detail)).isEmpty)
        #expect(state.reduce(.storeOffline(nil)) == [.reload])
        #expect(Screen.draw(state).lines.first?.contains("offline") == false)
        #expect(state.reduce(.input(.key(.character("s")))).contains(.signOut(.asked)))
    }

    @Test("the offline status bar, as golden text", arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func snapshot(size: Size) {
        var state = Fixture.state(size: size, accounts: [Fixture.ada, Fixture.grace], active: Fixture.ada)
        _ = state.reduce(.storeOffline(Self.detail))
        Snapshot.check(Screen.draw(state), "offline-\(size.width)x\(size.height)")
    }
}
