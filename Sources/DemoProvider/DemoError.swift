/// Errors thrown by ``DemoServer``'s in-process actions and lifecycle.
public enum DemoError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No device code has this user code.
    case unknownCode
    /// The user code was already approved, denied or exchanged, or it has expired.
    case codeAlreadyUsed
    /// No (longer a) person with this id or name.
    case unknownPerson(String)
    /// Too many wrong user codes were entered recently (RFC 8628 §5.1); try again later.
    case tooManyAttempts
    /// The server could not listen; the payload says where and why.
    case cannotBind(String)
    /// A ``PublicAccess`` that cannot be used; the payload names the option.
    case badPublicAccess(String)

    /// A short human-readable explanation.
    public var description: String {
        switch self {
        case .unknownCode: "unknown user code"
        case .codeAlreadyUsed: "the user code was already used or has expired"
        case .unknownPerson(let person): "unknown person: \(person)"
        case .tooManyAttempts: "too many wrong codes; wait a minute and try again"
        case .cannotBind(let reason): "cannot listen: \(reason)"
        case .badPublicAccess(let reason): reason
        }
    }
}
