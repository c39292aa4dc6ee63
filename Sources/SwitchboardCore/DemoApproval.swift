/// The command that approves a code at the built-in demo provider from
/// another terminal, as the CLI's sign-in and the chooser's dialog both
/// show it.
public enum DemoApproval {
    /// Where `switchboard demo serve` listens unless told otherwise.
    public static let defaultServer = "http://127.0.0.1:8628"

    /// `switchboard demo approve CODE`, with `--server URL` when the demo
    /// provider is not at `defaultServer` (a trailing `/` aside); made safe
    /// for the terminal.
    public static func command(userCode: String, server: String) -> String {
        let trimmed = server.hasSuffix("/") ? String(server.dropLast()) : server
        let option = trimmed == defaultServer ? "" : " --server \(trimmed)"
        return "switchboard demo approve \(userCode)\(option)".displaySafe
    }
}
