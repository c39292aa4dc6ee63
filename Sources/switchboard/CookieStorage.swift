import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Foundation's shared cookie store on Linux makes a folder named after the
/// executable's folder (`bin`, `debug`) in `$XDG_DATA_HOME` (else
/// `~/.local/share`) the first time any `URLSessionConfiguration` is made,
/// even one that stores no cookies. Switchboard stores no cookies, so the
/// shared store is made here first, once, while the data home names a place
/// where no folder can be made (`/dev/null`); the variable is then put back.
enum CookieStorageFolder {
    /// Call first thing in `main`, before any other thread reads the environment.
    static func preventCreation() {
        let name = "XDG_DATA_HOME"
        let saved = getenv(name).map { String(cString: $0) }
        setenv(name, "/dev/null", 1)
        _ = HTTPCookieStorage.shared
        if let saved { setenv(name, saved, 1) } else { unsetenv(name) }
    }
}
