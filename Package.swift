// swift-tools-version:6.0
import PackageDescription

// Switchboard — a terminal account chooser. Module map and the one-way
// dependency rule: see `../shared/DESIGN.md` §5. `SwitchboardCore` imports
// nothing of ours; arrows only point down.

/// Release settings of the modules the launcher runs before its first frame
/// (and of its anchor, so both are built the same way):
/// - concrete generic types are made with direct metadata accessors, not
///   from mangled names: a mangled name makes the runtime look up each
///   conformance the type needs by scanning every loaded image, about 25 µs
///   a type at launch;
/// - cross-module optimization, so that generic code is specialized and
///   small functions inlined across these modules.
let launchSettings: [SwiftSetting] = [
    .unsafeFlags(
        ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors", "-cross-module-optimization"],
        .when(configuration: .release))
]

let package = Package(
    name: "Switchboard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "switchboard", targets: ["switchboard"]),
        .executable(name: "switchboard-bench", targets: ["switchboard-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.0.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    targets: [
        .target(
            name: "SwitchboardCore",
            swiftSettings: launchSettings
        ),
        .target(
            name: "DeviceFlow",
            dependencies: ["SwitchboardCore", "ConfigFile", .product(name: "JWTKit", package: "jwt-kit")]
        ),
        .target(name: "ConfigFile", swiftSettings: launchSettings),
        .target(name: "QRCode"),
        .target(
            name: "DemoProvider",
            dependencies: [
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "Store",
            dependencies: ["SwitchboardCore", "StoreSnapshot", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // The launcher's read of the store: SQLite's C API, no GRDB, no Foundation.
        .target(name: "StoreSnapshot", dependencies: ["SwitchboardCore", "CSQLite"], swiftSettings: launchSettings),
        .target(name: "TerminalUI", dependencies: ["ConfigFile"], swiftSettings: launchSettings),
        // The chooser's state, reducer, panes and dialogs: everything that
        // draws a frame. No Foundation (time is SwitchboardCore.Moment), so that
        // the launcher can draw the first frame before loading the rest.
        .target(name: "ChooserUI", dependencies: ["SwitchboardCore", "TerminalUI", "ConfigFile"], swiftSettings: launchSettings),
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses"),
        .target(name: "CursesBackend", dependencies: ["CNcurses", "TerminalUI"], swiftSettings: launchSettings),
        .target(
            name: "SwitchboardApp",
            dependencies: ["SwitchboardCore", "ChooserUI", "DeviceFlow", "Store", "QRCode", "TerminalUI", "ConfigFile", "DemoProvider"],
            resources: [.copy("Resources")]
        ),
        // What the launcher needs for the first frame; Foundation-free.
        .target(
            name: "ChooserLaunch",
            dependencies: ["ChooserUI", "ConfigFile", "StoreSnapshot", "SwitchboardCore", "TerminalUI"],
            swiftSettings: launchSettings
        ),
        // The launcher: the `switchboard` program. It draws the chooser's
        // first frame, then loads `switchboard-runtime` into the process with
        // dlopen. The plugin has it built alongside: a target dependency
        // would link the runtime's libraries (Foundation…) into the launcher.
        .executableTarget(
            name: "switchboard",
            dependencies: ["ChooserLaunch", "ChooserUI", "CNcurses", "CursesBackend", "SwitchboardCore"],
            swiftSettings: launchSettings,
            plugins: ["BuildRuntime"]
        ),
        .plugin(name: "BuildRuntime", capability: .buildTool(), dependencies: ["switchboard-runtime"]),
        // Everything else: the CLI and the chooser's UI loop, with GRDB,
        // Foundation and the HTTP stack. An executable target so that the
        // plugin can have it built, but linked as a shared object
        // (clang's -shared, which drops the usual -pie; it says so, hence the
        // -Wno-…) for the launcher to load; -Bsymbolic
        // keeps its calls on its own copies of the modules both images hold.
        .executableTarget(
            name: "switchboard-runtime",
            dependencies: [
                "SwitchboardCore", "Store", "DeviceFlow", "QRCode", "DemoProvider", "SwitchboardApp", "ChooserUI", "TerminalUI",
                "CNcurses", "CursesBackend", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [.unsafeFlags([
                "-Xclang-linker", "-shared", "-Xclang-linker", "-Wno-unused-command-line-argument", "-Xlinker", "-Bsymbolic",
            ])]
        ),
        .executableTarget(
            name: "switchboard-bench",
            dependencies: [
                "SwitchboardCore", "Store", "SwitchboardApp", "ChooserUI", "TerminalUI",
                // Run by `switchboard-bench tui`; listed so they are built with it.
                "switchboard", "curses-baseline", "curses-frames",
            ]
        ),
        // Anchors of `switchboard-bench tui`: bare curses start-up, and the
        // chooser's frames painted naively. Benchmark anchors only: like the
        // backend, they call curses directly.
        .executableTarget(name: "curses-baseline", dependencies: ["CNcurses"], swiftSettings: launchSettings),
        .executableTarget(
            name: "curses-frames",
            dependencies: ["CNcurses", "CursesBackend", "Store", "SwitchboardApp", "ChooserUI", "SwitchboardCore", "TerminalUI"]
        ),
        .target(name: "TestSupport", dependencies: ["Store", "DeviceFlow"], path: "Tests/TestSupport"),
        .testTarget(name: "SwitchboardCoreTests", dependencies: ["SwitchboardCore"]),
        .testTarget(name: "ConfigFileTests", dependencies: ["ConfigFile"]),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "CNcurses", "TerminalUI"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "ConfigFile"]),
        .testTarget(
            name: "DemoProviderTests",
            dependencies: ["DemoProvider", .product(name: "JWTKit", package: "jwt-kit")]
        ),
        .testTarget(name: "DeviceFlowTests", dependencies: ["DeviceFlow", "DemoProvider", "TestSupport"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "SwitchboardAppTests",
            dependencies: ["SwitchboardApp", "ChooserUI", "ChooserLaunch", "DemoProvider", "TestSupport", "TerminalUI"],
            exclude: ["Snapshots"]
        ),
        .testTarget(name: "StoreTests", dependencies: ["Store", "StoreSnapshot", "TestSupport", "switchboard-bench"]),
        .testTarget(name: "switchboardTests", dependencies: ["switchboard", "Store", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
