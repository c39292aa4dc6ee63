import Foundation
import Glibc
import SwitchboardCore

/// Whether `kube-credential` says its one line this time, so that a person
/// sees it once per kubectl run.
///
/// kubectl runs its exec plugin more than once in one run when the plugin
/// fails, and passes the plugin's standard error through each time: said on
/// every run, the line shows twice. Every one of those runs has the same
/// parent, that kubectl process. So the first run under a parent says the
/// line and leaves a mark in the person's runtime folder
/// (`$XDG_RUNTIME_DIR/switchboard/said/`, their own, emptied at logout),
/// named by the parent's lifetime (boot, process id and start time, so a
/// later process given the same id is not taken for it); a run under the
/// same parent while the mark is younger than `window` stays quiet, and
/// still exits as the first did. A parent that lives on and asks again
/// later (a kubectl proxy, a dashboard) hears the line again once the mark
/// is older than that.
///
/// It holds only where kubectl runs the plugin (`KUBERNETES_EXEC_INFO` is
/// set): run by hand, the line is said every time. Where there is no runtime
/// folder, `/proc` cannot tell the parent, or the mark cannot be written,
/// the line is said every time: twice rather than never.
struct KubectlOnce: Sendable {
    /// The mark for this parent.
    let mark: String

    /// How long a mark keeps a parent's later runs quiet: far longer than
    /// the moments between kubectl's tries in one run.
    static let window: TimeInterval = 60

    /// Nil when the rule does not hold here (not run by kubectl, no runtime
    /// folder, no parent's lifetime): then the line is said every time.
    init?(environment: [String: String], parent: String? = ProcessLifetime.of(getppid())) {
        guard environment["KUBERNETES_EXEC_INFO"] != nil, let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
            let parent, !parent.isEmpty
        else { return nil }
        mark = runtime + "/switchboard/said/kubectl-" + parent.replacingOccurrences(of: "/", with: "-")
    }

    /// The folder the marks are in.
    var folder: String { (mark as NSString).deletingLastPathComponent }

    /// True when this run is the first under its parent within `window`, and
    /// records that it was; marks older than `window` are dropped first.
    func firstToSay(now: Date = Date()) -> Bool {
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil
        else { return true }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix("kubectl-") {
            let path = folder + "/" + name
            let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            if let modified, now.timeIntervalSince(modified) >= Self.window { unlink(path) }
        }
        // Made only if it is not there: of two runs at once, one says it.
        let descriptor = open(mark, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return true
        }
        return errno != EEXIST
    }
}
