import FlyingFox
import Foundation

/// `POST /api/approve` body.
struct ApproveRequest: Decodable {
    var userCode: String?
    var person: String?
    var deny: Bool?
}

/// `POST /api/expire` and `POST /api/forget` bodies.
struct TargetRequest: Decodable {
    var userCode: String?
    var person: String?
}

/// `GET/POST /api/settings` body; every field optional on input.
struct SettingsBody: Codable {
    var expiresIn: Int?
    var interval: Int?
    var slowDownPolls: Int?
    var denyAll: Bool?
    var accessTokenLifetime: Int?
    var rotateRefreshTokens: Bool?
}

/// A person as listed by `GET /api/people`.
struct PersonBody: Encodable {
    let id: String
    let name: String
    let email: String?
    let emailVerified: Bool
    let subject: String
}

/// A successful API action.
struct OKBody: Encodable {
    var ok = true
    var person: String?
    var outcome: String?
}

extension Provider {
    /// `POST /api/approve`: approve (or, with `"deny": true`, deny) a user code.
    func apiApprove(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = await request.jsonBody(ApproveRequest.self) else { return Self.badJSON }
        guard let userCode = body.userCode else { return Reply.error("invalid_request", "user_code is required") }
        let deny = body.deny ?? false
        do {
            let outcome = try await store.decide(userCode: userCode, person: body.person, deny: deny, client: request.client)
            switch outcome {
            case .approved(let person):
                return Reply.json(OKBody(person: person.id, outcome: "approved"))
            case .denied:
                let person = body.person.flatMap(DemoPerson.resolve)?.id
                return Reply.json(OKBody(person: person, outcome: "denied"))
            }
        } catch {
            return Self.apiFailure(error)
        }
    }

    /// `POST /api/expire`: make a pending code expire now.
    func apiExpire(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = await request.jsonBody(TargetRequest.self) else { return Self.badJSON }
        do {
            try await store.expire(userCode: body.userCode ?? "")
            return Reply.json(OKBody())
        } catch {
            return Self.apiFailure(error)
        }
    }

    /// `POST /api/forget`: the provider no longer knows a person.
    func apiForget(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = await request.jsonBody(TargetRequest.self) else { return Self.badJSON }
        do {
            let person = try await store.forget(person: body.person ?? "")
            return Reply.json(OKBody(person: person.id))
        } catch {
            return Self.apiFailure(error)
        }
    }

    /// `GET /api/people`: the people the provider still knows.
    func apiPeople() async -> HTTPResponse {
        Reply.json(await store.knownPeople.map {
            PersonBody(id: $0.id, name: $0.name, email: $0.email, emailVerified: $0.emailVerified, subject: $0.subject)
        })
    }

    /// `GET /api/settings`
    func apiSettings() async -> HTTPResponse {
        Reply.json(Self.body(for: await store.settings))
    }

    /// `POST /api/settings`: change any of the switches; answers with all of them.
    func apiUpdateSettings(_ request: HTTPRequest) async -> HTTPResponse {
        guard let body = await request.jsonBody(SettingsBody.self) else { return Self.badJSON }
        var settings = await store.settings
        if let value = body.expiresIn { settings.expiresIn = value }
        if let value = body.interval { settings.interval = value }
        if let value = body.slowDownPolls { settings.slowDownPolls = value }
        if let value = body.denyAll { settings.denyAll = value }
        if let value = body.accessTokenLifetime { settings.accessTokenLifetime = value }
        if let value = body.rotateRefreshTokens { settings.rotateRefreshTokens = value }
        if let problem = settings.problem { return Reply.error("invalid_request", problem) }
        await store.updateSettings(settings)
        return Reply.json(Self.body(for: settings))
    }

    private static var badJSON: HTTPResponse {
        Reply.error("invalid_request", "the body must be a JSON object")
    }

    private static func body(for settings: DemoSettings) -> SettingsBody {
        SettingsBody(expiresIn: settings.expiresIn, interval: settings.interval,
                     slowDownPolls: settings.slowDownPolls, denyAll: settings.denyAll,
                     accessTokenLifetime: settings.accessTokenLifetime,
                     rotateRefreshTokens: settings.rotateRefreshTokens)
    }

    private static func apiFailure(_ failure: ApprovalFailure) -> HTTPResponse {
        switch failure {
        case .unknownCode: Reply.error("unknown_code", "no device code has this user code", status: .notFound)
        case .alreadyUsed: Reply.error("code_already_used", "the code was already decided", status: .conflict)
        case .expired: Reply.error("expired_token", "the code has expired", status: .conflict)
        case .unknownPerson(let who):
            Reply.error("unknown_person", "no person \"\(who)\"; see GET /api/people", status: .badRequest)
        case .tooManyAttempts:
            Reply.error("too_many_attempts", "too many wrong codes; wait a minute", status: .tooManyRequests)
        }
    }
}
