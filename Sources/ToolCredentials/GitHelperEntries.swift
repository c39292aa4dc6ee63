/// The `credential.<url>.helper` entries `setup-git` writes for a git
/// server, as `gh auth setup-git` does: an empty helper, which clears the
/// helpers configured before it for that URL, then Switchboard's. These
/// are the rules for what is there and what undoing leaves; the command
/// runs `git config` to read and write them.
public enum GitHelperEntries {
    /// The helper git runs: `switchboard git-credential get|store|erase`,
    /// through the shell, so `switchboard` is found on `PATH`.
    public static let helper = "!switchboard git-credential"

    /// The setting's key for `server`: `credential.https://github.com.helper`.
    public static func key(for server: GitServer) -> String { "credential.\(server.url).helper" }

    /// The section's name for `server`, as `git config --remove-section` takes it.
    public static func section(for server: GitServer) -> String { "credential.\(server.url)" }

    /// Whether `values` (the key's values in one file, in order) already
    /// make Switchboard the helper there: its entry is present and no empty
    /// helper after it clears it.
    public static func isSetUp(_ values: [String]) -> Bool {
        guard let ours = values.lastIndex(of: helper) else { return false }
        return !values[(ours + 1)...].contains("")
    }

    /// What `setup-git` adds to `values`: nothing when it is set up,
    /// else an empty helper and Switchboard's.
    public static func additions(to values: [String]) -> [String] { isSetUp(values) ? [] : ["", helper] }

    /// `values` with what `setup-git` added taken out: each Switchboard
    /// entry, with the empty helper just before it.
    public static func undone(_ values: [String]) -> [String] {
        var kept: [String] = []
        for value in values {
            if value == helper {
                if kept.last == "" { kept.removeLast() }
            } else {
                kept.append(value)
            }
        }
        return kept
    }
}
