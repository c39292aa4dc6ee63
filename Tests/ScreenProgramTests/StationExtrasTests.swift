import ScreenKit
import DeviceFlow
import Foundation
import StationConfig
import Store
import Testing
import TestSupport
@testable import ChooserUI
@testable import Services
@testable import ChooserApp
import SwitchboardCore
import TerminalUI

/// What a station has beyond the locked chooser: the greeting from an issue
/// file, the clock, the last person preselected, its own operator key, and
/// reboot and power-off in the operator menu.
@Suite("a station's extras: greeting, clock, remembered person, operator key, power")
struct StationExtrasTests {
    static let size = Size(width: 100, height: 30)

    func station(_ settings: StationSettings = StationSettings(greeting: "Lab station 3"), clock: LocalClock? = nil,
                 size: Size = Self.size, active: Account? = nil) -> Station {
        Station(Fixture.state(size: size, accounts: [Fixture.ada, Fixture.grace, Fixture.zoe], active: active), settings: settings, clock: clock)
    }

    // MARK: Settings

    @Test("an operator key may not be one the chooser or the station already uses")
    func operatorKeyTaken() {
        #expect(StationSettings.operatorKeyTaken(.control("c")) == "is already the chooser's key for quit")
        #expect(StationSettings.operatorKeyTaken(.control("z")) == "is already the chooser's key for suspend")
        for key: Key in [.function(12), .function(1), .control("o"), .control("x")] {
            #expect(StationSettings.operatorKeyTaken(key) == nil, "\(key)")
        }
    }

    @Test("the configured operator key opens the operator PIN; F12 then is an ordinary (unbound) key")
    func operatorKey() {
        var settings = StationSettings()
        settings.operatorKey = .control("o")
        var state = station(settings)
        _ = state.reduce(.input(.key(.function(12))))
        #expect(state.dialog == nil)
        _ = state.reduce(.input(.key(.control("o"))))
        guard case .operatorPIN = state.stationDialog else { Issue.record("no operator PIN dialog"); return }
    }

    // MARK: Greeting

    @Test("/etc/issue: the first line with something to show, getty escapes expanded or dropped, made safe")
    func issueGreeting() {
        let context = IssueGreeting.Context(nodename: "lab-3", tty: "tty1", sysname: "Linux", release: "6.1.0", machine: "x86_64", version: "#1 SMP")
        let greet = { (text: String) in IssueGreeting.greeting(in: text, context: context) }
        #expect(greet("Debian GNU/Linux 12 \\n \\l\n\n") == "Debian GNU/Linux 12 lab-3 tty1")
        #expect(greet("\n   \n\\S\nKernel \\r on an \\m (\\l)\n") == "Kernel 6.1.0 on an x86_64 (tty1)", "an empty first line, then one only of dropped escapes")
        #expect(greet("Today is \\d \\t, \\u users, \\U, \\b baud\n") == "Today is , users, , baud")
        #expect(greet("\\e{lightblue}Welcome\\e{reset} to \\4{eth0} \\4 \\6 \\O\\o\n") == "Welcome to")
        #expect(greet("\\e[1;34mBlue\\e[0m \\\\ back\\slash \\z\n") == "Blue \\ backLinuxlash")
        #expect(greet("\u{1B}]0;title\u{07}Raw \u{1B}[31mred\u{1B}[0m\u{9B}2J and \u{202E}bidi\r\n") == "Raw red and bidi")
        #expect(greet("\\e{red}\\d\n\n") == nil, "nothing to show at all")
        #expect(greet("") == nil)
        #expect(greet("trailing backslash \\") == "trailing backslash")
        let evil = IssueGreeting.Context(nodename: "host\u{1B}[2Jname")
        #expect(IssueGreeting.greeting(in: "At \\n\n", context: evil) == "At hostname", "what an escape expands to is made safe too")
    }

    // MARK: Clock

    @Test("local time as HH:MM, from the offset for each moment")
    func clockText() {
        let moment = Fixture.now  // 2027-01-15 08:00:00 UTC
        #expect(LocalClock.fixed(0).text(at: moment) == "08:00")
        #expect(LocalClock.fixed(5 * 3600 + 1800).text(at: moment.advanced(by: 59)) == "13:30")
        #expect(LocalClock.fixed(-9 * 3600).text(at: moment) == "23:00", "west of UTC, the day before")
        #expect(LocalClock.fixed(0).text(at: moment.advanced(by: 16 * 3600 - 1)) == "23:59")
        #expect(LocalClock.fixed(0).text(at: Moment(secondsSince1970: -61)) == "23:58", "before 1970 too")
        #expect(LocalClock.fixed(0).nextMinute(after: moment) == moment.advanced(by: 60), "on the minute: the next one")
        #expect(LocalClock.fixed(0).nextMinute(after: moment.advanced(by: 12.5)) == moment.advanced(by: 60))
        #expect(LocalClock.fixed(30).nextMinute(after: moment) == moment.advanced(by: 30), "an offset in seconds moves the minute")
        // Summer time starts at 08:00:30 UTC here: the hour moves at once.
        let summer = LocalClock { $0 >= moment.advanced(by: 30) ? 3600 : 0 }
        #expect(summer.text(at: moment.advanced(by: 29)) == "08:00" && summer.text(at: moment.advanced(by: 30)) == "09:00")
    }

    @Test("the clock redraws when the minute changes: one wake-up a minute while the station rests, none between")
    func clockDeadline() {
        var state = station(clock: .fixed(0))
        let start = state.now
        #expect(state.clockText == "08:00" && !state.needsTicks)
        #expect(state.nextDeadline == start.advanced(by: 60))
        #expect(StationScreen.draw(state).lines[0].contains("08:00"))
        _ = state.reduce(.tick(start.advanced(by: 60.004)))
        #expect(state.clockText == "08:01" && StationScreen.draw(state).lines[0].contains("08:01"))
        #expect(state.nextDeadline == start.advanced(by: 120), "the next minute, not sooner")
        // Away from the first screen: the countdown's start still wakes it, and the minutes in between.
        _ = state.reduce(.input(.key(.down)), at: start.advanced(by: 61))
        #expect(state.nextDeadline == start.advanced(by: 120))
        _ = state.reduce(.tick(start.advanced(by: 120)))
        #expect(state.nextDeadline == start.advanced(by: 180) && !state.needsTicks)
        var plain = Fixture.state(size: Self.size)
        #expect(plain.surround.clock == nil && plain.nextDeadline == nil, "no clock outside a station")
        _ = plain.reduce(.tick(start))
        #expect(!Screen.draw(plain).lines[0].contains("08:00"))
        var unset = station()
        #expect(unset.clockText == nil && unset.nextDeadline == nil, "a station without a clock never wakes when resting")
        _ = unset.reduce(.tick(start))
    }

    @Test("the clock stays in the middle of the top bar only while it clears the greeting and the person")
    func clockRoom() {
        let narrow = station(StationSettings(greeting: String(repeating: "Welcome ", count: 6)), clock: .fixed(0), size: Size(width: 60, height: 24), active: Fixture.ada)
        #expect(!StationScreen.draw(narrow).lines[0].contains("08:00"))
        let wide = station(clock: .fixed(0), size: Size(width: 80, height: 24), active: Fixture.ada)
        let bar = StationScreen.draw(wide).lines[0]
        #expect(bar.contains(" Lab station 3") && bar.contains("08:00") && bar.contains("● Ada Lovelace"))
    }

    @Test("snapshot: a station with its greeting and the clock", arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40)])
    func snapshot(size: Size) {
        var settings = StationSettings(greeting: "Lab station 3 — welcome")
        settings.power = StationPower(reboot: ["systemctl", "reboot"])
        let state = station(settings, clock: .fixed(3600), size: size)
        Snapshot.check(StationScreen.draw(state), "kiosk-greeting-clock-\(size.width)x\(size.height)")
    }

    // MARK: Remember the last person

    @Test("remember_last: the remembered person is selected, not made active; the station rests there and comes back there")
    func rememberedSelection() {
        var settings = StationSettings()
        settings.rememberLast = true
        var state = Station(AppState(session: Fixture.session, size: Self.size, now: Fixture.now, guide: Fixture.guide, theme: .builtIn, providers: Fixture.providers), settings: settings, clock: .fixed(0))
        // As the loop does it: who it was, then the list.
        _ = state.reduce(.remembered(Fixture.grace.id))
        _ = state.reduce(.loaded(AccountList([Fixture.ada, Fixture.grace, Fixture.zoe], protected: []), active: .anonymous))
        #expect(state.accounts.selectedItem == .account(Fixture.grace.id) && state.active == .anonymous)
        #expect(state.nextDeadline == Fixture.now.advanced(by: 60), "resting there: only the clock wakes it")
        // Someone else comes and goes: the station comes back to them.
        _ = state.reduce(.input(.key(.up)))
        #expect(state.reduce(.input(.key(.enter))) == [.chooser(.switchAccount(Fixture.ada.id))])
        // The switch's fact, as the loop reduces it (no reload follows).
        _ = state.reduce(.statusChanged(UserStatusChanged(session: Fixture.session, previous: .anonymous, current: .account(Fixture.ada), reason: .switched)))
        #expect(state.accounts.list.accounts.map(\.name) == ["Ada Lovelace", "Grace Hopper", "Zoë Ångström"], "still by name")
        _ = state.reduce(.input(.key(.down)))
        _ = state.reduce(.input(.key(.down)))
        #expect(state.reduce(.tick(Fixture.now.advanced(by: 135))) == [.chooser(.signOut(.idle))])
        #expect(state.accounts.selectedItem == .account(Fixture.ada.id))
        _ = state.reduce(.loaded(AccountList([Fixture.ada, Fixture.grace, Fixture.zoe], protected: []), active: .anonymous))
        #expect(state.accounts.selectedItem == .account(Fixture.ada.id) && state.secondsLeft == nil)
        #expect(state.nextDeadline == Fixture.now.advanced(by: 180), "at rest on Ada: no countdown")

        // Without remember_last, the store's answer changes nothing.
        var off = station()
        _ = off.reduce(.remembered(Fixture.grace.id))
        #expect(off.accounts.selection == 0)
    }

    @Test("remember_last through the real store: after a sign-out and a restart the list starts on that person")
    @MainActor
    func rememberedAcrossRestart() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("switchboard.sqlite")
        let station = SessionKey("station")!
        do {
            let database = try AppDatabase(testing: path)
            let ids = try Sample.signIn([Sample.adaGitHub, Sample.graceGitHub], into: database, session: station)
            _ = try database.switchAccount(to: ids[0], session: station)
            let alan = LinkedIdentity(identity: Identity(provider: "gitlab", subject: "alan"), displayName: "Alan Turing", email: nil)
            _ = try Sample.signIn([alan], into: database, session: SessionKey("pts/9")!)  // elsewhere: no matter
            _ = try database.signOut(session: station)
            #expect(try database.lastActiveAccount(in: station) == ids[0])
            #expect(try database.lastActiveAccount(in: SessionKey("pts/8")!) == nil)
        }
        // The restart: a new process opens the file.
        let database = try AppDatabase(testing: path)
        let ada = try #require(try database.lastActiveAccount(in: station))
        var settings = StationSettings()
        settings.rememberLast = true
        let state = Station(AppState(session: station, size: Self.size, now: Moment.now(), guide: Fixture.guide, theme: .builtIn, providers: []), settings: settings)
        let bus = NotificationBus()
        let providers = ProviderDirectory(configuration: ProviderConfiguration(providers: []), transport: URLSessionTransport(timeout: 5))
        var frames: [Buffer] = []
        let loop = ChooserLoop(
            program: state,
            environment: ChooserEnvironment(
                database: database, bus: bus, providers: providers, copy: { _ in }, open: { _ in }, nextTheme: { _ in (Theme.monochrome, nil) }),
            render: { frames.append(StationScreen.draw($0)) })
        try await loop.startSettled()
        #expect(loop.state.active == .anonymous, "selected, not made active")
        #expect(loop.state.accounts.selectedItem == .account(ada))
        let first = try #require(frames.first)
        #expect(first.lines.contains { $0.contains("▸") && $0.contains("Ada Lovelace") }, "\(first.text)")

        // A disconnected person's account is gone: nobody is remembered.
        _ = try database.disconnect(Sample.adaGitHub.identity, session: station)
        #expect(try database.lastActiveAccount(in: station) == nil)
    }

    // MARK: Power

    func operatorMenu(_ power: StationPower) -> Station {
        var settings = StationSettings()
        settings.power = power
        var state = station(settings)
        _ = state.reduce(.input(.key(.function(12))))
        for c in "2468" { _ = state.reduce(.input(.key(.character(c)))) }
        _ = state.reduce(.input(.key(.enter)))
        _ = state.reduce(.operatorPINChecked(.accepted))
        return state
    }

    @Test("reboot and power off are in the operator menu only when configured; each asks first, then runs its command")
    func powerEntries() {
        #expect(operatorMenu(StationPower()).operatorChoices == [.leaveKiosk, .signOut, .disconnect, .back])
        #expect(operatorMenu(StationPower(powerOff: ["halt"])).operatorChoices == [.leaveKiosk, .signOut, .disconnect, .powerOff, .back])
        // An argument with spaces or quotes is shown quoted, so what runs reads as it is.
        var quoted = operatorMenu(StationPower(reboot: ["sh", "-c", "echo it's late; reboot"]))
        _ = Fixture.press(.down, .down, .down, .enter, on: &quoted)
        #expect(StationScreen.draw(quoted).text.contains(#"Runs: sh -c 'echo it'\''s late; reboot'"#), "\(StationScreen.draw(quoted).text)")
        var state = operatorMenu(StationPower(reboot: ["systemctl", "reboot"], powerOff: ["systemctl", "poweroff"]))
        #expect(state.operatorChoices == [.leaveKiosk, .signOut, .disconnect, .reboot, .powerOff, .back])
        #expect(StationScreen.draw(state).text.contains("Reboot the station") && StationScreen.draw(state).text.contains("Power off the station"))
        _ = Fixture.press(.down, .down, .down, .down, on: &state)
        #expect(Fixture.press(.enter, on: &state).isEmpty)
        guard case .confirmPower(.powerOff) = state.stationDialog else { Issue.record("no confirmation"); return }
        let asked = StationScreen.draw(state).text
        #expect(asked.contains("Power off the station?") && asked.contains("Runs: systemctl poweroff"))
        var declined = state
        #expect(Fixture.press(.character("n"), on: &declined).isEmpty)
        guard case .operatorMenu(4) = declined.stationDialog else { Issue.record("not back in the menu, on the same line"); return }
        #expect(Fixture.press(.character("y"), on: &state) == [.power(.powerOff, command: ["systemctl", "poweroff"])])
        #expect(state.stationDialog == nil)
        _ = state.reduce(.powerCommandRan(.powerOff, .failed("systemctl exited with status 1: Access denied")))
        #expect(state.toasts.last?.text == "Could not power off the station: systemctl exited with status 1: Access denied")
        #expect(state.toasts.last?.kind == .error)
        _ = state.reduce(.powerCommandRan(.reboot, .succeeded))
        #expect(state.toasts.last?.text == "The station will reboot now.")
        // The last line goes back to the station, as before.
        var back = operatorMenu(StationPower(reboot: ["true"]))
        _ = Fixture.press(.end, .down, .down, .down, .down, .down, on: &back)
        #expect(Fixture.press(.enter, on: &back).isEmpty && back.stationDialog == nil)
    }

    @Test("a station command runs without a shell, input from /dev/null; a failure says its status and its last line")
    func stationCommand() async throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let file = folder.file("ran")
        let ran = await StationCommand.run(["sh", "-c", "cat > \"$0\"; echo ok >> \"$0\"", file])
        #expect(ran == .succeeded)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "ok\n", "standard input was empty")
        #expect(await StationCommand.run(["false"]) == .failed("false exited with status 1"))
        #expect(await StationCommand.run(["sh", "-c", "echo starting; echo 'Access denied' >&2; exit 3"])
                == .failed("sh exited with status 3: Access denied"))
        #expect(await StationCommand.run(["sh", "-c", "kill -9 $$"]) == .failed("sh was killed by signal 9"))
        #expect(await StationCommand.run(["switchboard-no-such-program"]) == .failed("cannot run switchboard-no-such-program: no such program"))
        #expect(await StationCommand.run([folder.path]) == .failed("cannot run \(folder.path): no such program"), "a folder is no program")
        #expect(await StationCommand.run(["$(reboot)"]) == .failed("cannot run $(reboot): no such program"), "no shell")
    }
}
