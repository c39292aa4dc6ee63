import Foundation
import Glibc
import SwitchboardCore

/// Which directory rules the person trusts, as direnv remembers its
/// `.envrc` files: by path and the SHA-256 of the content allowed. A rule
/// whose content changed since is no longer trusted; a denied one is not
/// reported again until it changes. Kept in one small JSON file,
/// `$XDG_DATA_HOME/switchboard/allowed-rules.json` (mode 0600), written
/// whole and renamed into place.
struct RuleTrust: Sendable {
    /// What the person said of a rule.
    enum Verdict: Sendable, Equatable {
        /// Allowed with this content.
        case allowed
        /// Denied with this content.
        case denied
        /// Never allowed (`changed`: allowed or denied with other content).
        case unknown(changed: Bool)
    }

    /// The file the verdicts are kept in.
    let path: String

    /// The trust file of `environment`'s person.
    init(environment: [String: String]) {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? HomeDirectory.path(environment: environment) + "/.local/share"
        path = dataHome + "/switchboard/allowed-rules.json"
    }

    init(path: String) { self.path = path }

    private struct Verdicts: Codable {
        var allow: [String: String] = [:]
        var deny: [String: String] = [:]
    }

    /// What was said of `rule`; a trust file that cannot be read trusts nothing.
    func verdict(on rule: DirectoryRule) -> Verdict {
        if rule.isOwnConfiguration { return .allowed }
        let verdicts = (try? load()) ?? Verdicts()
        let key = rule.trustPath
        if verdicts.allow[key] == rule.digest { return .allowed }
        if verdicts.deny[key] == rule.digest { return .denied }
        return .unknown(changed: verdicts.allow[key] != nil || verdicts.deny[key] != nil)
    }

    /// Records `allowed` (or denied) for `rule` as it is now.
    func record(_ rule: DirectoryRule, allowed: Bool) throws(TrustFileError) {
        var verdicts: Verdicts
        do { verdicts = try load() } catch let error as TrustFileError { throw error } catch { verdicts = Verdicts() }
        let key = rule.trustPath
        verdicts.allow[key] = allowed ? rule.digest : nil
        verdicts.deny[key] = allowed ? nil : rule.digest
        try save(verdicts)
    }

    private func load() throws -> Verdicts {
        guard let data = FileManager.default.contents(atPath: path) else { return Verdicts() }
        do { return try JSONDecoder().decode(Verdicts.self, from: data) } catch {
            throw TrustFileError(path: path, problem: "it is not the JSON this program writes; move it aside to start afresh")
        }
    }

    private func save(_ verdicts: Verdicts) throws(TrustFileError) {
        let folder = (path as NSString).deletingLastPathComponent
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw TrustFileError(path: path, problem: "its folder cannot be made (\(error.localizedDescription))")
        }
        guard let data = try? encoder.encode(verdicts) else { throw TrustFileError(path: path, problem: "it cannot be written") }
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw TrustFileError(path: path, problem: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == data.count, synced, rename(temporary, path) == 0 else {
            let problem = String(cString: strerror(errno))
            unlink(temporary)
            throw TrustFileError(path: path, problem: problem)
        }
    }
}

/// The trust file could not be read or written; nothing was changed.
struct TrustFileError: Error, Sendable, CustomStringConvertible {
    let path: String
    let problem: String
    var description: String { "\(path): \(problem); nothing was changed" }
}
