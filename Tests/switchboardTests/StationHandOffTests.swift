import Testing
@testable import switchboard

/// The station's hand-off settings that come from its environment.
@Suite("the station's hand-off: its settings")
struct StationHandOffTests {
    @Test("the grace before a command that ignores the hang-up is killed: 5 s, or a whole number of seconds from 1 to 60 for tests")
    func grace() {
        #expect(StationHandOff.grace([:]) == 5)
        #expect(StationHandOff.grace(["SWITCHBOARD_HAND_OFF_GRACE_SECONDS": "1"]) == 1)
        #expect(StationHandOff.grace(["SWITCHBOARD_HAND_OFF_GRACE_SECONDS": "60"]) == 60)
        for refused in ["0", "61", "-1", "1.5", "", "five"] {
            #expect(StationHandOff.grace(["SWITCHBOARD_HAND_OFF_GRACE_SECONDS": refused]) == 5, "\(refused)")
        }
    }
}
