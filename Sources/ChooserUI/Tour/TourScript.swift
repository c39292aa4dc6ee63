import SwitchboardCore
import TerminalUI

extension TourState {
    /// Seconds between polls the tour asks of the demo provider: a sign-in
    /// ends a second after its approval.
    public static let pollInterval = 1

    /// The tour of `demo tour`, against two demo providers (`first`, where
    /// Ada signs in first, and `second`): each outcome of a sign-in with a
    /// caption, from an empty store to a sign-out, and then again.
    ///
    /// 1. Ada signs in with `first`, approved on the page (by the tour, through the provider's API).
    /// 2. A denial. 3. A code that expires (it lives `expiry` seconds).
    /// 4. Grace signs in with `second`, whose provider answers `slow_down` first.
    /// 5. Grace links her `first` identity.
    /// 6. Ada signs in with `second`: a second account for her; linking her
    ///    `first` identity meets her first account, and merge makes them one.
    /// 7. A switch to Grace. 8. A sign-out.
    public static func script(first: ProviderID, second: ProviderID, expiry: Int) -> [TourStep] {
        let usual = TourMove.settings(expiresIn: 600, interval: pollInterval, slowDownPolls: 0)
        /// Opens the sign-in dialog (`a` or `l`), chooses the provider, waits for the code.
        func code(_ key: Character, _ provider: ProviderID) -> [TourMove] {
            [.press(.character(key)), .pause(beats: 1), .chooseProvider(provider), .until(.codeShown), .showInspector]
        }
        /// Waits for the ending, lets the room read it, closes it.
        let ending: [TourMove] = [.until(.signInEnded), .pause(beats: 3), .press(.enter), .pause(beats: 1)]
        return [
            TourStep(
                "1/8 · Approved: the tour approves Ada's code through the approval page's API",
                [usual] + code("a", first) + [.pause(beats: 3), .approve(person: "ada")] + ending),
            TourStep(
                "2/8 · Denied: the person says no, and the next poll answers access_denied",
                code("a", first) + [.pause(beats: 3), .deny] + ending),
            TourStep(
                "3/8 · Expired: nobody approves the code within its expires_in",
                [.settings(expiresIn: expiry, interval: pollInterval, slowDownPolls: 0)] + code("a", first) + ending + [usual]),
            TourStep(
                "4/8 · slow_down: Grace's provider asks for slower polls; the client adds 5 s",
                [.settings(expiresIn: 600, interval: pollInterval, slowDownPolls: 1)] + code("a", second)
                    + [.until(.slowedDown), .pause(beats: 1), .approve(person: "grace")] + ending + [usual]),
            TourStep(
                "5/8 · Linked: Grace adds her Demo identity to her account",
                code("l", first) + [.pause(beats: 2), .approve(person: "grace")] + ending),
            TourStep(
                "6/8 · Conflict: Ada's second account meets her first; merge makes them one",
                code("a", second) + [.pause(beats: 2), .approve(person: "ada")] + ending
                    + code("l", first) + [.pause(beats: 2), .approve(person: "ada"), .until(.conflictShown), .pause(beats: 3),
                                           .press(.character("m")), .until(.noDialog), .pause(beats: 3)]),
            TourStep(
                "7/8 · Switch: this terminal now acts as Grace",
                [.selectAccount(named: "Grace Hopper"), .pause(beats: 2), .press(.enter), .pause(beats: 3)]),
            TourStep(
                "8/8 · Sign-out: the terminal acts as nobody; the accounts stay",
                [.press(.character("s")), .pause(beats: 3)]),
            TourStep("Once more from the start, with an empty store", [.pause(beats: 2), .again]),
        ]
    }
}
