import Foundation
import ProcessKit

/// `switchboard-bench SUITE` — prints `name: value` lines, one figure each.
@main
struct Bench {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "bus":
            BusBench.run()
        case "propagation":
            do { try await PropagationBench.run(Array(arguments.dropFirst())) } catch {
                FileHandle.standardError.write(Data("propagation: \(error)\n".utf8))
                exit(1)
            }
        case "propagation-writer":
            do { try PropagationBench.write(Array(arguments.dropFirst())) } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                exit(1)
            }
        case "fleet":
            do { try await FleetBench.run(Array(arguments.dropFirst())) } catch {
                FileHandle.standardError.write(Data("fleet: \(error)\n".utf8))
                exit(1)
            }
        case "fleet-station":
            do { try await FleetBench.station(Array(arguments.dropFirst())) } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                exit(1)
            }
        case "tui":
            do { try TUIBench.run(Array(arguments.dropFirst())) } catch {
                FileHandle.standardError.write(Data("tui: \(error)\n".utf8))
                exit(1)
            }
        case "faults":
            do { try FaultsBench.run(Array(arguments.dropFirst())) } catch {
                FileHandle.standardError.write(Data("faults: \(error)\n".utf8))
                exit(1)
            }
        case "roster":
            do { try RosterBench.run(Array(arguments.dropFirst())) } catch {
                FileHandle.standardError.write(Data("roster: \(error)\n".utf8))
                exit(1)
            }
        case "hook":
            do { try HookBench.run(Array(arguments.dropFirst())) } catch {
                FileHandle.standardError.write(Data("hook: \(error)\n".utf8))
                exit(1)
            }
        default:
            FileHandle.standardError.write(Data("""
                usage: switchboard-bench bus
                       switchboard-bench propagation [--count N] [--interval-ms MS]
                       switchboard-bench tui [--runs N] [--idle SECONDS] [--dump] [--workspace DIR]
                       switchboard-bench roster [--sizes 1000,10000,100000] [--runs N] [--rounds N] [--events N] [--stations N] [--workspace DIR]
                       switchboard-bench faults [--keys N] [--stations N]
                       switchboard-bench hook [--prompts N] [--runs N]
                       switchboard-bench fleet [--stations N] [--rounds N] [--interval-ms MS] [--burst SECONDS] [--sslmode disable|require] [--pgbouncer [--poll-ms MS]]
                              [--board-stations N] [--board-changes N] [--board-idle SECONDS] [--board-only]

                """.utf8))
            exit(64)
        }
    }
}

/// Monotonic seconds: the clock of ProcessKit's `TerminalProcess` times too.
func now() -> Double { Monotonic.seconds() }

/// Prints a figure as `name: value`.
func figure(_ name: String, _ value: Double, decimals: Int = 0) {
    print("\(name): \(String(format: "%.\(decimals)f", value))")
}
