import ArgumentParser
import Configuration
import DeviceFlow
import Foundation
import SwitchboardCore

struct ProvidersCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "providers", abstract: "List the providers you can sign in with, and what each still needs.")

    @OptionGroup var options: CommonOptions

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let configuration = try context.configuration()
        let providers = configuration.providers.providers
        if options.json {
            return io.printJSON(providers.map(ProviderJSON.init))
        }
        for provider in providers {
            let state = provider.problem.map { "⚠ \($0)" } ?? "ready"
            io.print("\(provider.id)\t\(provider.name.displaySafe) (\(provider.kind.rawValue))\t\(state)")
        }
        if configuration.file == nil {
            let path = SwitchboardConfiguration.path(explicit: options.config, environment: io.environment).path
            io.print("\nNo configuration file; add providers in \(path.displaySafe)")
        }
    }
}

/// An element of `providers --json`. Secrets are never shown, only whether one is set.
private struct ProviderJSON: Encodable {
    let id: String
    let kind: String
    let name: String
    @Null var issuer: String?
    @Null var clientID: String?
    let hasClientSecret: Bool
    let ready: Bool
    @Null var problem: String?

    init(_ settings: ProviderSettings) {
        id = settings.id.rawValue
        kind = settings.kind.rawValue
        name = settings.name
        issuer = settings.issuer?.absoluteString
        clientID = settings.clientID
        hasClientSecret = settings.clientSecret != nil
        ready = settings.problem == nil
        problem = settings.problem
    }
}
