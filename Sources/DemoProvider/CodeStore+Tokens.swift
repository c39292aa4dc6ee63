import Foundation

/// Tokens handed to a client for one person.
struct TokenGrant: Sendable {
    let accessToken: String
    let refreshToken: String
    let expiresIn: Int
    let scope: String
    let person: DemoPerson
    let clientID: String
}

/// What the store knows about an access token.
struct AccessRecord: Sendable {
    let personID: String
    let expiresAt: Date
    /// The refresh token this access token belongs to; revoking it revokes this one too.
    let refreshToken: String
}

/// What the store knows about a refresh token.
struct RefreshRecord: Sendable {
    let personID: String
    let clientID: String
    let scope: String
}

/// What the userinfo endpoint should answer.
enum UserInfoOutcome: Sendable {
    case person(DemoPerson)
    case invalidToken
    case personForgotten
}

extension CodeStore {
    /// Mints a new refresh token and a first access token.
    func issueTokens(person: DemoPerson, clientID: String, scope: String) -> TokenGrant {
        let refreshToken = Secrets.token(bytes: 32)
        refreshTokens[refreshToken] = RefreshRecord(personID: person.id, clientID: clientID, scope: scope)
        return mintAccessToken(person: person, clientID: clientID, scope: scope, refreshToken: refreshToken)
    }

    /// A new access token for a live refresh token (RFC 6749 §6). With
    /// ``DemoSettings/rotateRefreshTokens`` the refresh token is replaced by
    /// a new one (the old one answers `invalid_grant` from now on, and the
    /// access tokens issued with it are revoked with the new one); otherwise
    /// it is kept. Nil means `invalid_grant`.
    func refresh(token refreshToken: String, clientID: String) -> TokenGrant? {
        guard let record = refreshTokens[refreshToken], record.clientID == clientID,
              !forgotten.contains(record.personID),
              let person = DemoPerson.byID(record.personID) else { return nil }
        var current = refreshToken
        if settings.rotateRefreshTokens {
            current = Secrets.token(bytes: 32)
            refreshTokens[refreshToken] = nil
            refreshTokens[current] = record
            for (token, access) in accessTokens where access.refreshToken == refreshToken {
                accessTokens[token] = AccessRecord(personID: access.personID, expiresAt: access.expiresAt, refreshToken: current)
            }
        }
        return mintAccessToken(person: person, clientID: clientID, scope: record.scope, refreshToken: current)
    }

    /// Resolves a bearer token for the userinfo endpoint.
    func userInfo(accessToken: String) -> UserInfoOutcome {
        guard let record = accessTokens[accessToken], now() < record.expiresAt else { return .invalidToken }
        guard !forgotten.contains(record.personID), let person = DemoPerson.byID(record.personID) else {
            return .personForgotten
        }
        return .person(person)
    }

    /// Revokes an access or refresh token (RFC 7009). Revoking a refresh token also
    /// revokes every access token issued with it. Unknown tokens are ignored.
    func revoke(token: String) {
        if accessTokens.removeValue(forKey: token) != nil { return }
        guard refreshTokens.removeValue(forKey: token) != nil else { return }
        accessTokens = accessTokens.filter { $0.value.refreshToken != token }
    }

    private func mintAccessToken(
        person: DemoPerson, clientID: String, scope: String, refreshToken: String
    ) -> TokenGrant {
        let issuedAt = now()
        purgeExpiredAccessTokens(at: issuedAt)
        let lifetime = settings.accessTokenLifetime
        let accessToken = Secrets.token(bytes: 32)
        accessTokens[accessToken] = AccessRecord(
            personID: person.id, expiresAt: issuedAt.addingTimeInterval(TimeInterval(lifetime)),
            refreshToken: refreshToken)
        return TokenGrant(accessToken: accessToken, refreshToken: refreshToken, expiresIn: lifetime,
                          scope: scope, person: person, clientID: clientID)
    }

    private func purgeExpiredAccessTokens(at date: Date) {
        accessTokens = accessTokens.filter { $0.value.expiresAt > date.addingTimeInterval(-3600) }
    }
}
