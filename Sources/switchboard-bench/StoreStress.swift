import Foundation
import Store
import SwitchboardCore

/// `store-stress`: one process switching a session between accounts as fast
/// as it can, for the multi-process contention test and as a figure of its
/// own (switches per second with another writer on the same file).
enum StoreStress {
    static func run(_ arguments: [String]) throws {
        var options: [String: String] = [:]
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard name.hasPrefix("--"), let value = iterator.next() else { return usage("unexpected \(name)") }
            options[String(name.dropFirst(2))] = value
        }
        guard let path = options["database"], let sessionName = options["session"],
            let session = SessionKey(sessionName),
            let accounts = options["accounts"]?.split(separator: ",").compactMap({ Int64($0) }).map({ AccountID($0) }),
            !accounts.isEmpty, let count = Int(options["count"] ?? "1000")
        else { return usage("missing or bad option") }

        let database = try AppDatabase(path: path)
        var errors = 0
        let start = now()
        for index in 0..<count {
            do {
                _ = try database.switchAccount(to: accounts[index % accounts.count], session: session)
            } catch {
                errors += 1
                FileHandle.standardError.write(Data("switch \(index): \(error)\n".utf8))
            }
        }
        figure("switches", Double(count))
        figure("errors", Double(errors))
        figure("switches-per-s", Double(count) / (now() - start))
        if errors > 0 { exit(1) }
    }

    static func usage(_ problem: String) {
        FileHandle.standardError.write(Data("store-stress: \(problem)\n".utf8))
        exit(64)
    }
}
