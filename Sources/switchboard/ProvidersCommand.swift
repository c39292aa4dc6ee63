import ArgumentParser
import Configuration
import DeviceFlow
import Foundation
import Services
import SwitchboardCore

struct ProvidersCommand: IOCommand, TakesCommonOptions {
    static let configuration = CommandConfiguration(
        commandName: "providers", abstract: "List the providers you can sign in with, and what each still needs.")

    @OptionGroup var options: CommonOptions

    @Flag(help: "Also ask each ready provider for its metadata: its endpoints, and where each came from.")
    var resolve = false

    func run(io: CommandIO) async throws {
        let context = CommandContext(options, io: io)
        let configuration = try context.configuration()
        let providers = configuration.providers.providers
        // Asked only when told: listing them needs no network.
        var resolved: [ProviderID: Result<ProviderEndpoints, FlowFailure>] = [:]
        if resolve {
            let directory = ProviderDirectory(configuration: configuration.providers, transport: URLSessionTransport(timeout: 10))
            for provider in providers where provider.problem == nil {
                do { resolved[provider.id] = .success(try await directory.resolve(provider.id).endpoints) } catch { resolved[provider.id] = .failure(error) }
            }
        }
        if options.json {
            return io.printJSON(providers.map { ProviderJSON($0, resolved: resolved[$0.id]) })
        }
        for provider in providers {
            let state = provider.problem.map { "⚠ \($0)" } ?? "ready"
            io.print("\(provider.id)\t\(provider.name.displaySafe) (\(provider.kind.rawValue))\t\(state)")
            switch resolved[provider.id] {
            case .success(let endpoints)?:
                for (name, url) in endpoints.named {
                    io.print("  \(name)\t\(url.absoluteString.displaySafe)\t(\(endpoints.sources[name] ?? "?"))")
                }
            case .failure(let error)?: io.print("  ⚠ \(error.description.displaySafe)")
            case nil: break
            }
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
    /// With `--resolve`: each endpoint, with where it came from.
    @Null var endpoints: [EndpointJSON]?
    /// With `--resolve`: why the provider's metadata could not be had.
    @Null var resolveError: String?

    struct EndpointJSON: Encodable {
        let name: String
        let url: String
        let from: String
    }

    init(_ settings: ProviderSettings, resolved: Result<ProviderEndpoints, FlowFailure>? = nil) {
        switch resolved {
        case .success(let found)?:
            endpoints = found.named.map { EndpointJSON(name: $0.name, url: $0.url.absoluteString, from: found.sources[$0.name] ?? "?") }
        case .failure(let error)?: resolveError = error.description
        case nil: break
        }
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
