import Foundation

/// The claims of an OpenID Connect id_token that Switchboard reads, decoded
/// leniently so that each check can name the claim that failed: a claim of
/// the wrong type reads as absent, except the time claims, which say so.
struct IDTokenClaims: Decodable, Sendable {
    /// A time claim (`exp`, `nbf`, `iat`): a NumericDate (seconds since
    /// 1970, RFC 7519 §2), absent, or something else.
    enum Time: Sendable, Equatable {
        case absent
        case notANumber
        case date(Date)
    }

    var iss: String?
    var sub: String?
    /// `aud` as a string or a list of strings.
    var aud: [String]?
    var exp: Time = .absent
    var nbf: Time = .absent
    var iat: Time = .absent
    var name: String?
    var preferred_username: String?
    var email: String?
    /// `email_verified` as a boolean or the string "true" (some providers).
    var emailVerified = false
    var oid: String?
    var tid: String?

    private enum Keys: String, CodingKey {
        case iss, sub, aud, exp, nbf, iat, name, preferred_username, email, email_verified, oid, tid
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        func text(_ key: Keys) -> String? { try? container.decode(String.self, forKey: key) }
        func time(_ key: Keys) -> Time {
            guard container.contains(key) else { return .absent }
            guard let seconds = try? container.decode(Double.self, forKey: key), seconds.isFinite else { return .notANumber }
            return .date(Date(timeIntervalSince1970: seconds))
        }
        iss = text(.iss)
        sub = text(.sub)
        aud = text(.aud).map { [$0] } ?? (try? container.decode([String].self, forKey: .aud))
        exp = time(.exp)
        nbf = time(.nbf)
        iat = time(.iat)
        name = text(.name)
        preferred_username = text(.preferred_username)
        email = text(.email)
        emailVerified = (try? container.decode(Bool.self, forKey: .email_verified)) ?? (text(.email_verified) == "true")
        oid = text(.oid)
        tid = text(.tid)
    }

    /// A claim by name, for subject rules like Microsoft's `oid` + `tid`.
    func claim(_ name: String) -> String? {
        switch name {
        case "sub": sub
        case "oid": oid
        case "tid": tid
        default: nil
        }
    }

    /// Checks the time claims at `now`, allowing `leeway` seconds of clock
    /// difference each way: `exp` is required and must be in the future,
    /// `nbf` and `iat` (when present) must not be. Each failure names its
    /// claim in its own words.
    func checkTimes(at now: Date, leeway: TimeInterval) throws(FlowFailure) {
        switch exp {
        case .absent: throw .unverifiable("the id_token has no exp (expiry) claim")
        case .notANumber: throw .unverifiable("the id_token claim exp is not a number")
        case .date(let date) where date.addingTimeInterval(leeway) <= now:
            throw .unverifiable("the id_token expired at \(Self.shown(date))")
        case .date: break
        }
        switch nbf {
        case .absent: break
        case .notANumber: throw .unverifiable("the id_token claim nbf is not a number")
        case .date(let date) where date.addingTimeInterval(-leeway) > now:
            throw .unverifiable("the id_token is not valid before \(Self.shown(date))")
        case .date: break
        }
        switch iat {
        case .absent: break
        case .notANumber: throw .unverifiable("the id_token claim iat is not a number")
        case .date(let date) where date.addingTimeInterval(-leeway) > now:
            throw .unverifiable("the id_token was issued in the future (at \(Self.shown(date)))")
        case .date: break
        }
    }

    /// A time for a message: ISO 8601 in UTC, or the raw number of seconds
    /// when it is outside the years 1 to 9999.
    static func shown(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard (-62_135_596_800...253_402_300_799).contains(seconds) else { return "\(seconds) s after 1970" }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

/// What an id_token says of itself, read without checking it: for a token
/// Switchboard hands on (to kubectl), whose receiver checks it.
public enum IDTokenExpiry {
    /// When `token` expires (its `exp`), or nil when it is not a JWT, has
    /// no `exp`, or one that is not a time between 1970 and 9999.
    public static func of(_ token: String) -> Date? {
        guard let signed = try? SignedToken(token, as: "the id_token"),
            let claims = try? JSONDecoder().decode(IDTokenClaims.self, from: signed.payload),
            case .date(let date) = claims.exp, (0...253_402_300_799).contains(date.timeIntervalSince1970)
        else { return nil }
        return date
    }
}
