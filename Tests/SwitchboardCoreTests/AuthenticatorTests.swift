import Glibc
import Testing
@testable import SwitchboardCore

/// An in-memory directory: identity -> account, plus verified emails.
struct FakeDirectory: AccountDirectory {
    var owners: [Identity: AccountID] = [:]
    var emails: [Identity: String] = [:]

    func accountID(for identity: Identity) -> AccountID? { owners[identity] }
    func identities(of account: AccountID) -> [Identity] {
        owners.filter { $0.value == account }.map(\.key).sorted()
    }
    func accounts(withVerifiedEmail email: String) -> [AccountID] {
        Array(Set(emails.filter { $0.value.lowercased() == email.lowercased() }.compactMap { owners[$0.key] })).sorted()
    }
}

private let ada1 = AccountID(1), grace2 = AccountID(2)
private let adaGitHub = Identity(provider: "github", subject: "583231")
private let adaGoogle = Identity(provider: "google", subject: "10769150350006150715113082367")
private let graceGitHub = Identity(provider: "github", subject: "1024")
private let graceGitLab = Identity(provider: "gitlab", subject: "77")
private let newcomer = Identity(provider: "microsoft", subject: "oid-9:tid-3")

private let directory = FakeDirectory(
    owners: [adaGitHub: ada1, adaGoogle: ada1, graceGitHub: grace2, graceGitLab: grace2],
    emails: [adaGitHub: "ada@example.org"])

private func decide(_ identity: Identity, _ mode: AuthMode, active: AccountID?, email: String? = nil, verified: Bool = true) throws -> AuthResolution {
    try Authenticator().decide(
        identity: LinkedIdentity(identity: identity, email: email, emailVerified: verified),
        mode: mode, active: active, directory: directory)
}

@Suite("Authenticator decision table")
struct AuthenticatorTests {
    @Test("known identity, nobody active: switch to its account, no new account", arguments: [AuthMode.signIn])
    func knownIdentityAnonymous(mode: AuthMode) throws {
        #expect(try decide(adaGoogle, mode, active: nil).decision == .useExisting(ada1))
    }

    @Test("known identity of the active account: stays, in either mode", arguments: [AuthMode.signIn, .link])
    func knownIdentityOfActive(mode: AuthMode) throws {
        #expect(try decide(adaGitHub, mode, active: ada1).decision == .useExisting(ada1))
    }

    @Test("unknown identity, sign-in mode: a new account", arguments: [nil, ada1])
    func unknownSignIn(active: AccountID?) throws {
        #expect(try decide(newcomer, .signIn, active: active).decision == .createAccount)
    }

    @Test("unknown identity, link mode: attached to the active account")
    func unknownLink() throws {
        #expect(try decide(newcomer, .link, active: grace2).decision == .link(to: grace2))
    }

    @Test("link mode with nobody active is refused")
    func linkAnonymous() throws {
        #expect(try decide(newcomer, .link, active: nil).decision == .refused(.nothingToLink))
    }

    @Test("identity of another account while someone is active: conflict with merge, switch, cancel", arguments: [AuthMode.signIn, .link])
    func conflictMergeable(mode: AuthMode) throws {
        // Grace (github, gitlab) is active; Ada's google identity turns up.
        // They share no provider, so merge is offered.
        var directory = directory
        directory.owners[adaGitHub] = nil
        let resolution = try Authenticator().decide(
            identity: LinkedIdentity(identity: adaGoogle), mode: mode, active: grace2, directory: directory)
        guard case .conflict(let conflict) = resolution.decision else {
            Issue.record("expected a conflict, got \(resolution.decision)")
            return
        }
        #expect(conflict.owner == ada1 && conflict.active == grace2 && conflict.identity == adaGoogle)
        #expect(conflict.canMerge)
        #expect(conflict.choices == [.merge, .switchAccount, .cancel])
        #expect(try Authenticator().resolve(conflict, choosing: .merge) == .merge(source: ada1, into: grace2))
        #expect(try Authenticator().resolve(conflict, choosing: .switchAccount) == .switchTo(ada1))
        #expect(try Authenticator().resolve(conflict, choosing: .cancel) == .stay)
    }

    @Test("conflict where both accounts hold an identity at one provider: merge offered, as a link of a second one is")
    func conflictSharingAProvider() throws {
        // Both Ada and Grace have a GitHub identity; the standard rule lets one account hold both.
        guard case .conflict(let conflict) = try decide(adaGoogle, .link, active: grace2).decision else {
            Issue.record("expected a conflict")
            return
        }
        #expect(conflict.sharedProviders == ["github"])
        #expect(conflict.canMerge && conflict.mergeRefusal == nil)
        #expect(conflict.choices == [.merge, .switchAccount, .cancel])
        #expect(try Authenticator().resolve(conflict, choosing: .merge) == .merge(source: ada1, into: grace2))
        #expect(conflict.mergeNote?.contains("keeps both") == true)
        // The link of a second GitHub identity to Grace: allowed by the same rule.
        let second = Identity(provider: "github", subject: "4096")
        #expect(try decide(second, .link, active: grace2).decision == .link(to: grace2))
    }

    @Test("one rule for link and merge: where it allows one identity per provider, both are refused, and say so")
    func oneRuleForLinkAndMerge() throws {
        let strict = Authenticator(rule: IdentityRule(severalAtOneProvider: false))
        let second = LinkedIdentity(identity: Identity(provider: "github", subject: "4096"))
        #expect(try strict.decide(identity: second, mode: .link, active: grace2, directory: directory).decision
            == .refused(.providerTaken(["github"])))
        #expect(AuthRefusal.providerTaken(["github"]).description.contains("one identity per provider"))
        // Another provider still links.
        let gitea = LinkedIdentity(identity: Identity(provider: "gitea", subject: "5"))
        #expect(try strict.decide(identity: gitea, mode: .link, active: grace2, directory: directory).decision == .link(to: grace2))
        guard case .conflict(let conflict) = try strict.decide(
            identity: LinkedIdentity(identity: adaGoogle), mode: .link, active: grace2, directory: directory).decision
        else {
            Issue.record("expected a conflict")
            return
        }
        #expect(!conflict.canMerge && conflict.mergeRefusal == ["github"])
        #expect(conflict.choices == [.switchAccount, .cancel])
        #expect(throws: AuthError.mergeRefused(["github"])) { try strict.resolve(conflict, choosing: .merge) }
        #expect(AuthError.mergeRefused(["github"]).description.contains("one identity per provider"))
        #expect(conflict.mergeNote?.contains("cannot be merged") == true)
    }

    @Test("the rule's decision: the providers a second identity would land at, refused only by a rule of one per provider")
    func ruleDecision() {
        let held = [adaGitHub, adaGoogle]
        #expect(IdentityRule.sharedProviders(adding: [graceGitHub, graceGitLab], to: held) == ["github"])
        #expect(IdentityRule.sharedProviders(adding: [adaGitHub], to: held) == [], "an identity held already is no second one")
        #expect(IdentityRule.standard.refusal(adding: [graceGitHub], to: held) == nil)
        #expect(IdentityRule(severalAtOneProvider: false).refusal(adding: [graceGitHub, graceGitLab], to: held) == ["github"])
        #expect(IdentityRule(severalAtOneProvider: false).refusal(adding: [graceGitLab], to: held) == nil)
    }

    @Test("a matching verified email is a hint, never a merge")
    func emailHint() throws {
        let resolution = try decide(newcomer, .signIn, active: nil, email: "ADA@example.org")
        #expect(resolution.decision == .createAccount)
        #expect(resolution.possibleMatches == [ada1])
    }

    @Test("an unverified email gives no hint; the account's own email is no hint")
    func noHint() throws {
        #expect(try decide(newcomer, .signIn, active: nil, email: "ada@example.org", verified: false).possibleMatches == [])
        #expect(try decide(adaGitHub, .signIn, active: nil, email: "ada@example.org").possibleMatches == [])
    }
}

@Suite("Features and words")
struct ModelTests {
    @Test("an account's features are the union over its available identities' providers")
    func featuresUnion() {
        let catalog = FeatureCatalog(["github": [.profile, .repositories], "google": [.profile, .email, .calendar]])
        let account = Account(id: ada1, name: "Ada", identities: [
            LinkedIdentity(identity: adaGitHub), LinkedIdentity(identity: adaGoogle),
        ])
        #expect(catalog.features(of: account) == [.profile, .repositories, .email, .calendar])
        var revoked = account
        revoked.identities[1].state = .revoked
        #expect(catalog.features(of: revoked) == [.profile, .repositories])
        #expect(catalog.features(of: ActiveAccount.anonymous).isEmpty)
    }

    @Test("two identities of one provider are told apart by login, else email, else subject; one alone stays short")
    func distinguishingNames() {
        let work = LinkedIdentity(identity: Identity(provider: "github", subject: "1"), email: "ada@work.example", login: "ada")
        let home = LinkedIdentity(identity: Identity(provider: "github", subject: "2"), email: "ada@home.example")
        let google = LinkedIdentity(identity: adaGoogle, email: "ada@gmail.example", login: "ada")
        let names = IdentityNames.distinguishing([work, google, home])
        #expect(names == [work.identity: "ada", home.identity: "ada@home.example"])
        #expect(IdentityNames.label(google, among: [work, google, home]) == "google")
        #expect(IdentityNames.label(work, among: [work, google, home]) == "github ada")
        // Two with the same login: their subjects tell them apart.
        var renamed = home
        renamed.login = "ADA"
        #expect(IdentityNames.distinguishing([work, renamed]) == [work.identity: "1", renamed.identity: "2"])
        let bare = LinkedIdentity(identity: Identity(provider: "github", subject: "3"))
        #expect(IdentityNames.distinguishing([work, bare])[bare.identity] == "3")
    }

    @Test("token facts: expiry in words, relative to now, and scopes each once; never a token")
    func tokenFacts() {
        let now = Moment(secondsSince1970: 1_000_000)
        #expect(TokenFacts.expiry(TokenFacts(expiresAt: now.advanced(by: 52 * 60 + 10)), now: now) == "expires in 52 min")
        #expect(TokenFacts.expiry(TokenFacts(expiresAt: now.advanced(by: -180)), now: now) == "expired 3 min ago")
        #expect(TokenFacts.expiry(TokenFacts(expiresAt: now.advanced(by: 40)), now: now) == "expires in 40 s")
        #expect(TokenFacts.expiry(TokenFacts(expiresAt: now.advanced(by: 3 * 86_400)), now: now) == "expires in 3 d")
        #expect(TokenFacts.expiry(TokenFacts(), now: now) == "no expiry given")
        #expect(TokenFacts.expiry(nil, now: now) == "no token stored")
        #expect(TokenFacts(scope: "openid profile openid,email").scopes == ["openid", "profile", "email"])
    }

    @Test("an account needs a sign-in again when every identity is revoked (or gone), not when one is only expired")
    func needsSignInAgain() {
        var account = Account(id: ada1, name: "Ada", identities: [
            LinkedIdentity(identity: adaGitHub, state: .revoked), LinkedIdentity(identity: adaGoogle, state: .revoked),
        ])
        #expect(account.needsSignInAgain && account.revokedIdentities.count == 2)
        account.identities[1].state = .notFound
        #expect(account.needsSignInAgain)
        account.identities[1].state = .expired
        #expect(!account.needsSignInAgain)
        account.identities[0].state = .notFound
        account.identities[1].state = .notFound
        #expect(!account.needsSignInAgain, "nothing a sign-in brings back")
        #expect(!Account(id: ada1, name: "Nobody").needsSignInAgain)
    }

    @Test("identities parse from provider:subject; subjects may hold colons")
    func parseIdentity() {
        #expect(Identity(parsing: "microsoft:oid-9:tid-3") == newcomer)
        #expect(Identity(parsing: "github") == nil)
        #expect(Identity(parsing: ":1") == nil)
    }

    @Test("session key: explicit, then SWITCHBOARD_SESSION, then terminal, then machine; * names the machine default")
    func sessionKey() throws {
        let pts1 = TerminalIdentity(name: "pts/1", lifetime: "host/boot/42/7")
        #expect(try SessionKey.resolve(explicit: "a", environment: ["SWITCHBOARD_SESSION": "b"], terminal: pts1).get().rawValue == "a")
        #expect(try SessionKey.resolve(explicit: nil, environment: ["SWITCHBOARD_SESSION": "b"], terminal: pts1).get().rawValue == "b")
        let terminal = try SessionKey.resolve(explicit: nil, environment: [:], terminal: pts1).get()
        #expect(terminal.rawValue == "pts/1" && terminal.lifetime == "host/boot/42/7")
        #expect(try SessionKey.resolve(explicit: nil, environment: [:], terminal: nil).get() == .machine)
        #expect(try SessionKey.resolve(explicit: "*", environment: [:], terminal: pts1).get().isMachine)
        #expect(try SessionKey.resolve(explicit: nil, environment: ["SWITCHBOARD_SESSION": "*"], terminal: nil).get().isMachine)
        // A name named explicitly is a named session, stable across terminals...
        #expect(try SessionKey.resolve(explicit: "lab", environment: [:], terminal: pts1).get().lifetime == nil)
        // ...unless it is this terminal's own name (as env and exec pass it on): then it is this terminal's session.
        #expect(try SessionKey.resolve(explicit: nil, environment: ["SWITCHBOARD_SESSION": "pts/1"], terminal: pts1).get().lifetime == "host/boot/42/7")
        #expect(SessionKey.isNamed(explicit: nil, environment: ["SWITCHBOARD_SESSION": "x"]))
        #expect(!SessionKey.isNamed(explicit: nil, environment: ["SWITCHBOARD_SESSION": ""]))
    }

    @Test("session names that are blank, not UTF-8, or hold controls are refused, not folded into one another", arguments: [
        "", " ", "\t \n", "a\u{FFFD}b", "\u{FFFD}", "a\u{1B}[2J", "bidi\u{202E}x", "nul\u{0}x", "c1\u{9B}x", String(repeating: "x", count: 257),
        " pts/0", "pts/0 ", "pts/0\u{00A0}", "line\u{2028}x", "para\u{2029}x", "zw\u{200B}x",
    ])
    func badSessionNames(_ name: String) {
        #expect(SessionKey(name) == nil)
        #expect(SessionKey.problem(with: name) != nil)
        #expect(throws: SessionKeyError.self) { try SessionKey.resolve(explicit: name, environment: [:], terminal: nil).get() }
    }

    @Test("a session shows its name through the terminal filter; two keys of one name are one session whatever their lifetime")
    func sessionDisplay() {
        #expect(SessionKey(stored: "pts/1\u{1B}]0;owned\u{7}\u{202E}").description == "pts/1")
        #expect(SessionKey(stored: "pts/1", lifetime: "a") == SessionKey(stored: "pts/1", lifetime: "b"))
        #expect(Set([SessionKey(stored: "pts/1", lifetime: "a"), SessionKey(stored: "pts/1")]).count == 1)
    }

    @Test("/proc/PID/stat: the session, terminal and start time, whatever the command's name holds")
    func processStat() throws {
        let line = "4242 (a) b (c)) S 1 4242 4242 34817 4242 4194560 1 0 0 0 0 0 0 0 20 0 1 0 98765 1000 100\n"
        let stat = try #require(ProcessStat.parse(line))
        #expect(stat.session == 4242 && stat.terminal == 34817 && stat.start == 98765)
        #expect(ProcessStat.parse("garbage") == nil)
    }

    @Test("a lifetime led by this test process is open; a made-up or earlier one is not")
    func lifetimes() throws {
        let own = try #require(TerminalIdentity.lifetime(leader: getpid()))
        #expect(TerminalIdentity.isOpen(own) == true)
        let parts = own.split(separator: "/")
        #expect(TerminalIdentity.isOpen("\(parts[0])/\(parts[1])/\(parts[2])/\(UInt64(parts[3])! + 1)") == false, "another start time")
        #expect(TerminalIdentity.isOpen("\(parts[0])/another-boot/\(parts[2])/\(parts[3])") == false, "an earlier boot")
        #expect(TerminalIdentity.isOpen("another-host/\(parts[1])/\(parts[2])/\(parts[3])") == nil, "another machine's")
        #expect(TerminalIdentity.isOpen("nonsense") == nil)
    }

    @Test("display names lose control characters and escape sequences")
    func displaySafe() {
        #expect("Ada\u{1B}[31m Love\u{7}lace\u{202E}".displaySafe == "Ada Lovelace")
        #expect("\u{1B}]0;owned\u{7}Ada\u{1B}[2J\u{1B}[10;10H Lovelace".displaySafe == "Ada Lovelace")
        #expect("A\u{1B}Pq#0;2\u{1B}\\da\u{9B}1mx".displaySafe == "Adax")
        #expect("trailing escape\u{1B}".displaySafe == "trailing escape")
        #expect("Zoë Ångström".displaySafe == "Zoë Ångström")
    }
}
