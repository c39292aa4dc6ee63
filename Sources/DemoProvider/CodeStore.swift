import Foundation

/// One device authorization in flight (RFC 8628 §3.2), with the switches in
/// force when it was issued.
struct DeviceGrant: Sendable {
    /// Where the grant stands.
    enum Status: Sendable, Equatable {
        case pending, approved(personID: String), denied, expired, exchanged
    }

    let deviceCode: String
    /// Canonical user code: 8 letters, no dash.
    let userCode: String
    let clientID: String
    let scope: String
    let expiresAt: Date
    let expiresIn: Int
    let interval: Int
    let denyAll: Bool
    var slowDownsLeft: Int
    var status: Status
}

/// What a token-endpoint poll with a device code yields.
enum PollOutcome: Sendable {
    case pending, slowDown, denied, expired, invalidGrant
    case approved(TokenGrant)
}

/// What an approval attempt did.
enum ApprovalOutcome: Sendable, Equatable {
    case approved(DemoPerson)
    case denied
}

/// Why a user-code action was refused.
enum ApprovalFailure: Error, Equatable {
    case unknownCode, alreadyUsed, expired, tooManyAttempts
    case unknownPerson(String)

    /// The public error for in-process callers (expired codes count as used).
    var demoError: DemoError {
        switch self {
        case .unknownCode: .unknownCode
        case .alreadyUsed, .expired: .codeAlreadyUsed
        case .tooManyAttempts: .tooManyAttempts
        case .unknownPerson(let who): .unknownPerson(who)
        }
    }
}

/// All mutable provider state: settings, device codes, tokens, forgotten people
/// and the code-entry limiter. One actor, so every transition is atomic.
actor CodeStore {
    let now: @Sendable () -> Date
    private(set) var settings: DemoSettings
    var grants: [String: DeviceGrant] = [:]
    var userCodes: [String: String] = [:]
    var limiter = AttemptLimiter()
    var forgotten: Set<String> = []
    var accessTokens: [String: AccessRecord] = [:]
    var refreshTokens: [String: RefreshRecord] = [:]

    init(settings: DemoSettings, now: @escaping @Sendable () -> Date) {
        self.settings = settings
        self.now = now
    }

    func updateSettings(_ settings: DemoSettings) {
        self.settings = settings
    }

    /// People the provider still knows (the cast minus forgotten people).
    var knownPeople: [DemoPerson] {
        DemoPerson.cast.filter { !forgotten.contains($0.id) }
    }

    /// A known person by id or name.
    func knownPerson(_ query: String) -> DemoPerson? {
        guard let person = DemoPerson.resolve(query), !forgotten.contains(person.id) else { return nil }
        return person
    }

    /// Starts a device authorization for `clientID` (RFC 8628 §3.1–3.2).
    func issueDeviceCode(clientID: String, scope: String) -> DeviceGrant {
        let issuedAt = now()
        purgeStaleGrants(at: issuedAt)
        var userCode = Secrets.userCode()
        while userCodes[userCode] != nil { userCode = Secrets.userCode() }
        let grant = DeviceGrant(
            deviceCode: Secrets.token(bytes: 32), userCode: userCode, clientID: clientID, scope: scope,
            expiresAt: issuedAt.addingTimeInterval(TimeInterval(settings.expiresIn)),
            expiresIn: settings.expiresIn, interval: settings.interval, denyAll: settings.denyAll,
            slowDownsLeft: max(0, settings.slowDownPolls), status: .pending)
        grants[grant.deviceCode] = grant
        userCodes[userCode] = grant.deviceCode
        return grant
    }

    /// One poll of the token endpoint (RFC 8628 §3.4–3.5).
    func poll(deviceCode: String, clientID: String) -> PollOutcome {
        guard var grant = grants[deviceCode], grant.clientID == clientID,
              grant.status != .exchanged else { return .invalidGrant }
        if grant.status == .expired || now() >= grant.expiresAt { return .expired }
        if grant.slowDownsLeft > 0 {
            grant.slowDownsLeft -= 1
            grants[deviceCode] = grant
            return .slowDown
        }
        switch grant.status {
        case .pending: return .pending
        case .denied: return .denied
        case .expired: return .expired
        case .exchanged: return .invalidGrant
        case .approved(let personID):
            guard let person = DemoPerson.byID(personID), !forgotten.contains(personID) else { return .denied }
            grant.status = .exchanged
            grants[deviceCode] = grant
            return .approved(issueTokens(person: person, clientID: grant.clientID, scope: grant.scope))
        }
    }

    /// Approves (as `person`) or denies the grant a person typed `userCode` for.
    /// Rate-limited per `client` (who typed it: a connection, or the
    /// program itself): unknown codes count as that client's wrong attempts.
    func decide(userCode: String, person: String?, deny: Bool, client: String) throws(ApprovalFailure) -> ApprovalOutcome {
        let attemptAt = now()
        if limiter.isBlocked(client, at: attemptAt) { throw .tooManyAttempts }
        var approver: DemoPerson?
        if !deny {
            guard let query = person, let known = knownPerson(query) else { throw .unknownPerson(person ?? "") }
            approver = known
        }
        guard var grant = grant(forUserCode: userCode) else {
            limiter.recordFailure(client, at: attemptAt)
            throw .unknownCode
        }
        switch grant.status {
        case .pending: break
        case .expired: throw .expired
        case .approved, .denied, .exchanged: throw .alreadyUsed
        }
        if attemptAt >= grant.expiresAt { throw .expired }
        guard let approver, !grant.denyAll else {
            grant.status = .denied
            grants[grant.deviceCode] = grant
            return .denied
        }
        grant.status = .approved(personID: approver.id)
        grants[grant.deviceCode] = grant
        return .approved(approver)
    }

    /// Makes a not-yet-decided (or approved but not exchanged) grant expire now.
    func expire(userCode: String) throws(ApprovalFailure) {
        guard var grant = grant(forUserCode: userCode) else { throw .unknownCode }
        switch grant.status {
        case .pending, .approved: grant.status = .expired
        case .denied, .expired, .exchanged: return
        }
        grants[grant.deviceCode] = grant
    }

    /// The provider no longer knows this person: their tokens stop yielding
    /// user info or refreshes, and they can no longer approve codes.
    @discardableResult
    func forget(person query: String) throws(ApprovalFailure) -> DemoPerson {
        guard let person = DemoPerson.resolve(query) else { throw .unknownPerson(query) }
        forgotten.insert(person.id)
        return person
    }

    /// The grant for a user code as typed (any case, with or without the dash).
    func grant(forUserCode typed: String) -> DeviceGrant? {
        guard let canonical = Secrets.canonicalUserCode(typed),
              let deviceCode = userCodes[canonical] else { return nil }
        return grants[deviceCode]
    }

    /// Drops grants that expired more than an hour ago, freeing their user codes.
    private func purgeStaleGrants(at date: Date) {
        let cutoff = date.addingTimeInterval(-3600)
        for (deviceCode, grant) in grants where grant.expiresAt < cutoff {
            grants[deviceCode] = nil
            userCodes[grant.userCode] = nil
        }
    }
}
