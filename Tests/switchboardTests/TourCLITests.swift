import Testing
import TestSupport

/// `demo tour`'s options, in-process: what the tmux test relies on and a
/// person never sees.
@Suite("switchboard demo tour: its options")
struct TourCLITests {
    @Test("--clock-speed is for tests: out of 1…100 it is refused by name before anything starts, and --help does not list it")
    func clockSpeed() async throws {
        let cli = CLI()
        for value in ["0", "0.5", "101", "nan"] {
            let result = await cli.run("demo", "tour", "--clock-speed", value)
            #expect(result.status == 64 && result.stderr.contains("--clock-speed must be 1…100"), "\(value): \(result.stderr)")
        }
        let help = await cli.run("demo", "tour", "--help")
        #expect(help.status == 0 && help.stdout.contains("--pace") && !help.stdout.contains("clock"), "\(help.stdout)")
    }
}
