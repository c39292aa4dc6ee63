import PINHash
import Testing
@testable import switchboard

/// What the program takes from its environment for tests, and within what bounds.
@Suite("settings for tests from the environment")
struct EnvironmentSettingsTests {
    @Test("the grace before a command that ignores the hang-up is killed: 5 s, or a whole number of seconds from 1 to 60 for tests")
    func grace() {
        #expect(StationHandOff.grace([:]) == 5)
        #expect(StationHandOff.grace(["SWITCHBOARD_HAND_OFF_GRACE_SECONDS": "1"]) == 1)
        #expect(StationHandOff.grace(["SWITCHBOARD_HAND_OFF_GRACE_SECONDS": "60"]) == 60)
        for refused in ["0", "61", "-1", "1.5", "", "five"] {
            #expect(StationHandOff.grace(["SWITCHBOARD_HAND_OFF_GRACE_SECONDS": refused]) == 5, "\(refused)")
        }
    }

    @Test("a process hashes PINs with 600,000 rounds; a debug build, as the tests run it, takes 1,000 or more below that from SWITCHBOARD_TEST_PIN_ROUNDS")
    func pinRounds() {
        #expect(StoredPIN.defaultRounds == 600_000)
        #expect(CommandIO.processPINRounds([:]) == StoredPIN.defaultRounds)
        #if DEBUG
        #expect(CommandIO.processPINRounds(["SWITCHBOARD_TEST_PIN_ROUNDS": "1000"]) == 1_000)
        #expect(CommandIO.processPINRounds(["SWITCHBOARD_TEST_PIN_ROUNDS": "599999"]) == 599_999)
        #endif
        for refused in ["999", "1", "0", "-1000", "600000", "9000000", "", "many"] {
            #expect(CommandIO.processPINRounds(["SWITCHBOARD_TEST_PIN_ROUNDS": refused]) == StoredPIN.defaultRounds, "\(refused)")
        }
    }
}
