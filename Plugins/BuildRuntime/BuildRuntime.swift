import PackagePlugin

/// Builds `switchboard-runtime` whenever the `switchboard` launcher is built,
/// without linking it (or what it links) into the launcher: SwiftPM builds a
/// build-tool plugin's tools before the target that uses the plugin, into
/// the same folder as `switchboard-runtime-tool`. The launcher loads that
/// file at run time. The plugin itself runs nothing.
@main
struct BuildRuntime: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        _ = try context.tool(named: "switchboard-runtime")
        return []
    }
}
