import Foundation
import GRDB
import SwitchboardCore

/// Migration v3: identities from an issuer named only by its URL
/// (`sign-in --issuer`) used to be keyed by the issuer's host alone, so two
/// issuers on one host were one provider. They are keyed by the whole
/// normalised issuer now (`ProviderID(issuer:)`).
///
/// An old row (its provider a host name: it holds a dot or a colon, which
/// a configured provider's name cannot) is moved to the issuer that its
/// stored id_token names, when that issuer is on the same host: that is
/// where its tokens came from. Any other old row cannot be placed (the
/// scheme, port and path were never stored, and its tokens may be another
/// issuer's): its tokens and fetched data are deleted and it is marked
/// `revoked`, so it stays visible on its account, is never used to act, and
/// signing in again makes the identity under the whole issuer.
enum IssuerRekeying {
    static func migrate(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: """
            SELECT identity.rowid AS rid, identity.provider AS provider, credential.idToken AS idToken
            FROM identity LEFT JOIN credential
              ON credential.provider = identity.provider AND credential.subject = identity.subject
            """)
        for row in rows {
            let provider: String = row["provider"], rowID: Int64 = row["rid"]
            guard isHostKeyed(provider) else { continue }
            // The subject is matched in SQL, by the identity's row, never read into a String and back.
            let sameSubject = "subject = (SELECT subject FROM identity WHERE rowid = ?)"
            if let idToken: String = row["idToken"], let issuer = issuer(ofIDToken: idToken, onHost: provider) {
                for table in ["credential", "providerData"] {
                    try db.execute(sql: "UPDATE \(table) SET provider = ? WHERE provider = ? AND \(sameSubject)", arguments: [issuer.rawValue, provider, rowID])
                }
                try db.execute(sql: "UPDATE identity SET provider = ? WHERE rowid = ?", arguments: [issuer.rawValue, rowID])
            } else {
                for table in ["credential", "providerData"] {
                    try db.execute(sql: "DELETE FROM \(table) WHERE provider = ? AND \(sameSubject)", arguments: [provider, rowID])
                }
                try db.execute(sql: "UPDATE identity SET state = ? WHERE rowid = ?", arguments: [CredentialState.revoked.rawValue, rowID])
            }
        }
    }

    /// Whether `provider` is a host name from before v3 rather than a
    /// provider's name (letters, digits, `-` and `_`) or a whole issuer.
    static func isHostKeyed(_ provider: String) -> Bool {
        !ProviderID(provider).isIssuer && (provider.contains(".") || provider.contains(":"))
    }

    /// The issuer an id_token names (its `iss`, read without verification:
    /// it only says where the stored tokens came from), when it is on `host`.
    static func issuer(ofIDToken token: String, onHost host: String) -> ProviderID? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        guard let data = Data(base64Encoded: payload),
            let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let iss = claims["iss"] as? String, let issuer = ProviderID(issuer: iss),
            let parsed = URL(string: issuer.rawValue)?.host
        else { return nil }
        let bare = { (name: String) in name.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")) }
        return bare(parsed) == bare(host) ? issuer : nil
    }
}
