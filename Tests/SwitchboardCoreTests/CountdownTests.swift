import Testing
import SwitchboardCore

@Suite("Countdown: a line for any number of seconds")
struct CountdownTests {
    @Test("every Double gives a line, never a trap", arguments: [
        (Double.nan, "0:00"), (-Double.nan, "0:00"), (Double.infinity, "99:59:59"), (-Double.infinity, "0:00"),
        (1e300, "99:59:59"), (1e19, "99:59:59"), (Double.greatestFiniteMagnitude, "99:59:59"), (-1e300, "0:00"),
        (-5, "0:00"), (0, "0:00"), (0.2, "0:01"), (61, "1:01"), (599.5, "10:00"), (3600, "1:00:00"), (86_400, "24:00:00"),
        (Double(Int.max), "99:59:59"), (Double.leastNonzeroMagnitude, "0:01"),
    ])
    func total(seconds: Double, expected: String) {
        #expect(Countdown.text(seconds) == expected)
    }

    @Test("whole seconds are rounded up and bounded")
    func wholeSeconds() {
        #expect(Countdown.wholeSeconds(.nan) == 0)
        #expect(Countdown.wholeSeconds(.infinity) == Countdown.longest)
        #expect(Countdown.wholeSeconds(29.1) == 30)
    }
}
