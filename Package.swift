// swift-tools-version:6.0
import PackageDescription

// Switchboard — a terminal account chooser. The module map and the one-way
// dependency rule are in docs/ARCHITECTURE.md: `SwitchboardCore` imports
// nothing of ours, arrows only point down, and only `CursesBackend` (and the
// benchmark anchors) import `CNcurses`.
//
// One executable: no plugins, no unsafe flags, resources compiled in, so a
// copied `switchboard` runs alone.

let package = Package(
    name: "Switchboard",
    products: [
        .executable(name: "switchboard", targets: ["switchboard"]),
        .executable(name: "switchboard-bench", targets: ["switchboard-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
    ],
    targets: [
        .target(name: "SwitchboardCore"),
        .target(name: "ConfigFile"),
        .target(
            name: "DeviceFlow",
            dependencies: ["SwitchboardCore", .product(name: "JWTKit", package: "jwt-kit"), .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "QRCode"),
        // What git and kubectl are handed: git's credential helper protocol,
        // which git servers take which provider's tokens, kubectl's
        // ExecCredential, and whose name and email commits carry.
        .target(name: "ToolCredentials", dependencies: ["SwitchboardCore", "DeviceFlow"]),
        .target(
            name: "DemoProvider",
            dependencies: [
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "FlyingSocks", package: "FlyingFox"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // PINs as salted slow hashes, and the wait after wrong ones; only the store uses it.
        .target(
            name: "PINHash",
            dependencies: [.product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto")]
        ),
        // libpq, PostgreSQL's own client (Debian: libpq-dev to build, libpq5
        // to run), and the small connection type over it; only the store uses it.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "Postgres", dependencies: ["CLibPQ"]),
        .target(
            name: "Store",
            dependencies: ["SwitchboardCore", "ConfigFile", "PINHash", "Postgres", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(name: "TerminalUI", dependencies: ["ConfigFile"]),
        // A station's settings as plain values, below both the chooser that
        // runs by them and Configuration, which reads them from [kiosk].
        .target(name: "StationConfig", dependencies: ["SwitchboardCore", "TerminalUI"]),
        // The parts every full-screen program's screen is built from: the
        // dialog frame, help, the filter line, PIN entry, the keys of dialogs.
        .target(name: "ScreenKit", dependencies: ["SwitchboardCore", "TerminalUI"]),
        // The operator's board: its state, reducer and screen, from ScreenKit's parts.
        .target(name: "BoardUI", dependencies: ["SwitchboardCore", "TerminalUI", "ScreenKit"]),
        // The chooser's state, reducer, panes and dialogs: everything that
        // draws a frame, without Foundation. The guide's listings and the
        // built-in themes are compiled in (`themes/` at the top is a link
        // to them).
        .target(
            name: "ChooserUI",
            dependencies: ["SwitchboardCore", "TerminalUI", "ConfigFile", "StationConfig", "ScreenKit"],
            resources: [
                .embedInCode("Resources/guide.toml"),
                .embedInCode("Resources/themes/default.toml"),
                .embedInCode("Resources/themes/light.toml"),
                .embedInCode("Resources/themes/high-contrast.toml"),
                .embedInCode("Resources/themes/monochrome.toml"),
            ]
        ),
        // config.toml, read once into the values each module takes: DeviceFlow's
        // providers, the chooser's theme, a station's settings, [store] and [git].
        .target(
            name: "Configuration", dependencies: ["SwitchboardCore", "ConfigFile", "Postgres", "DeviceFlow", "TerminalUI", "StationConfig", "ToolCredentials"]),
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses"),
        .target(name: "CursesBackend", dependencies: ["CNcurses", "TerminalUI"]),
        .target(name: "CSystem"),
        // Child processes: the program's `exec` and a station's hand-off
        // (`Supervisor`), the tests' processes and pseudo-terminals.
        .target(name: "ProcessKit", dependencies: ["CSystem"]),
        // A throwaway PostgreSQL server (initdb, postgres on loopback, a TLS
        // CA of its own) for the tests and `switchboard-bench fleet`.
        .target(name: "PostgresServer", dependencies: ["Postgres", "ProcessKit"]),
        // The operations the command line and the chooser share: a sign-in
        // from code to store, credential checks, disconnects, access tokens,
        // the providers, and the change feed from other processes.
        .target(name: "Services", dependencies: ["SwitchboardCore", "DeviceFlow", "Store", "DemoProvider", "ConfigFile"]),
        // The chooser's UI loop: it owns the state, runs the reducer and
        // carries out its effects with the services.
        .target(
            name: "ChooserApp",
            dependencies: ["Services", "SwitchboardCore", "ChooserUI", "BoardUI", "ScreenKit", "DeviceFlow", "Store", "QRCode", "TerminalUI", "ConfigFile", "CSystem", "ProcessKit"]
        ),
        // The program: the command line, and the chooser's UI loop on curses.
        .executableTarget(
            name: "switchboard",
            dependencies: [
                "SwitchboardCore", "Store", "PINHash", "DeviceFlow", "Configuration", "QRCode", "DemoProvider", "Services", "ChooserApp", "ChooserUI",
                "BoardUI", "ScreenKit", "StationConfig", "ToolCredentials",
                "TerminalUI", "CNcurses", "CursesBackend", "ProcessKit", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "switchboard-bench",
            dependencies: [
                "SwitchboardCore", "Store", "Services", "ChooserApp", "ChooserUI", "BoardUI", "TerminalUI", "ProcessKit",
                "PostgresServer", "DemoProvider", "DeviceFlow",
                // `roster` fills its stores, and appends its burst of events, with plain SQL.
                .product(name: "GRDB", package: "GRDB.swift"),
                // Run by `switchboard-bench tui` and `roster`; listed so they are built with it.
                "switchboard", "curses-baseline", "curses-frames", "c-baseline", "peak-probe",
            ]
        ),
        // Anchors of `switchboard-bench tui`: bare curses start-up, the
        // chooser's frames painted naively, and a bare C program. Benchmark
        // anchors only: like the backend, the first two call curses directly.
        .executableTarget(name: "curses-baseline", dependencies: ["CNcurses"]),
        .executableTarget(name: "c-baseline"),
        // For `switchboard-bench roster`: a whole process's time and peak memory, spawned from a small process.
        .executableTarget(name: "peak-probe"),
        // For ProcessKitTests: a station's hand-off alone, `Supervisor` on its own terminal.
        .executableTarget(name: "processkit-probe", dependencies: ["ProcessKit"]),
        .executableTarget(
            name: "curses-frames",
            dependencies: ["CNcurses", "CursesBackend", "Store", "Services", "ChooserApp", "ChooserUI", "SwitchboardCore", "TerminalUI"]
        ),
        // What every test target may use: the one way to wait for something
        // to happen, and the one seeded random generator.
        .target(name: "TestBasics", path: "Tests/TestBasics"),
        .target(
            name: "TestSupport", dependencies: ["Store", "DeviceFlow", "Services", "DemoProvider", "ProcessKit", "Postgres", "PostgresServer", "TestBasics"],
            path: "Tests/TestSupport"),
        .testTarget(name: "SwitchboardCoreTests", dependencies: ["SwitchboardCore", "TestBasics"]),
        .testTarget(name: "ConfigFileTests", dependencies: ["ConfigFile", "TestBasics"]),
        .testTarget(name: "ProcessKitTests", dependencies: ["ProcessKit", "processkit-probe", "TestBasics"]),
        .testTarget(name: "CursesBackendTests", dependencies: ["CursesBackend", "CNcurses", "TerminalUI", "ProcessKit", "TestBasics"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "ConfigFile", "TestBasics"]),
        .testTarget(
            name: "DemoProviderTests",
            dependencies: ["DemoProvider", .product(name: "JWTKit", package: "jwt-kit")]
        ),
        .testTarget(
            name: "DeviceFlowTests",
            dependencies: ["DeviceFlow", "DemoProvider", "TestSupport", .product(name: "JWTKit", package: "jwt-kit")]
        ),
        .testTarget(
            name: "ConfigurationTests",
            dependencies: ["Configuration", "ConfigFile", "DeviceFlow", "StationConfig", "ChooserUI", "TerminalUI", "SwitchboardCore", "ToolCredentials"]
        ),
        .testTarget(name: "ToolCredentialsTests", dependencies: ["ToolCredentials", "DeviceFlow", "SwitchboardCore"]),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode", "TestBasics"], resources: [.copy("Fixtures")]),
        // The full-screen programs (the chooser, a station, the tour, the
        // board): their reducers, screens as golden text, and loops.
        .testTarget(
            name: "ScreenProgramTests",
            dependencies: [
                "Services", "ChooserApp", "ChooserUI", "BoardUI", "ScreenKit", "StationConfig", "DemoProvider", "TestSupport", "TestBasics", "TerminalUI", "Postgres",
            ],
            exclude: ["Snapshots"]
        ),
        .testTarget(
            name: "ServicesTests",
            dependencies: ["Services", "Store", "DeviceFlow", "DemoProvider", "SwitchboardCore", "TestSupport", "TestBasics", "Postgres", "PostgresServer", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "PostgresServer", "TestSupport"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "PINHash", "TestSupport", "TestBasics"]),
        .testTarget(
            name: "switchboardTests",
            dependencies: [
                "switchboard", "Store", "TestSupport", "TestBasics", "ProcessKit", "DemoProvider", "ToolCredentials", "Postgres", "PostgresServer",
                // The loopback git and Kubernetes servers of the git and kubectl tests.
                .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "JWTKit", package: "jwt-kit"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
