// swift-tools-version:6.1
// Catalog is licensed under the Apache License, Version 2.0: see LICENSE.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Catalog",
    // Synchronization's Mutex and Atomic (used from CatalogCore up) need these releases.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "catalog", targets: ["catalog"]),
        .library(name: "CatalogJSON", targets: ["CatalogJSON"]),
        .library(name: "CatalogModel", targets: ["CatalogModel"]),
        .library(name: "CatalogCollation", targets: ["CatalogCollation"]),
        .library(name: "CatalogStorage", targets: ["CatalogStorage"]),
        .library(name: "CatalogCore", targets: ["CatalogCore"]),
        .library(name: "CatalogSQLite", targets: ["CatalogSQLite"]),
        .library(name: "CatalogPostgres", targets: ["CatalogPostgres"]),
        .library(name: "CatalogEngines", targets: ["CatalogEngines"]),
        .library(name: "SQLiteSupport", targets: ["SQLiteSupport"]),
        .library(name: "CatalogImport", targets: ["CatalogImport"]),
        .library(name: "CatalogDemo", targets: ["CatalogDemo"]),
        .library(name: "CatalogAuth", targets: ["CatalogAuth"]),
        .library(name: "CatalogHTTP", targets: ["CatalogHTTP"]),
        .library(name: "CatalogServer", targets: ["CatalogServer"]),
        .library(name: "CatalogImages", targets: ["CatalogImages"]),
        // What apps depend on: the API client and offline catalogs.
        .library(name: "CatalogClient", targets: ["CatalogClient"]),
        .library(name: "CatalogTerminal", targets: ["CatalogTerminal"]),
    ],
    targets: [
        // C libraries from Debian, behind thin module maps and shims.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CGD", pkgConfig: "gdlib", providers: [.apt(["libgd-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // libcurl drives feed downloads: no URLSession there, so decoding, limits and redirects are ours.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // glibc's allocator controls: the server gives freed heap pages back (HeapTrimmer).
        .systemLibrary(name: "CMalloc"),
        // ICU (Debian's libicu) behind an opaque C header of our own, so no Swift module ever sees
        // ICU's types next to Foundation's private copy of ICU.
        .target(
            name: "CICU",
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),

        // JSON's lexical rules (one tokenizer core for every reader) and the writer with its object
        // builder. Below the model, so the HTTP layer writes JSON without depending on it.
        .target(name: "CatalogJSON", swiftSettings: swiftSettings),
        // What every layer shares and that knows nothing of catalogs: the content hash, what a
        // message may show of a URL, what may reach a terminal. No I/O.
        .target(name: "CatalogSupport", swiftSettings: swiftSettings),
        // Standard output and error, written so that a failed write never traps (the one place
        // the CLI, the server and the engines print through).
        .target(name: "CatalogConsole", swiftSettings: swiftSettings),
        // Records, catalog definitions, text folding, query parsing, field mapping. No I/O.
        .target(name: "CatalogModel", dependencies: ["CatalogJSON", "CatalogSupport"], swiftSettings: swiftSettings),
        // Locale collation (sort keys) and alphabetic sections.
        .target(
            name: "CatalogCollation", dependencies: ["CICU", "CatalogModel", "CatalogStorage"],
            swiftSettings: swiftSettings),
        // The storage protocol every engine implements.
        .target(name: "CatalogStorage", dependencies: ["CatalogModel"], swiftSettings: swiftSettings),
        // The rules every engine and the client library share: the search index's form, how
        // search matches, ranks, counts and pages, what a scope is. Engine-neutral, no I/O of
        // its own beyond temporary files while an index is built.
        .target(
            name: "CatalogCore", dependencies: ["CatalogModel", "CatalogStorage", "CatalogSupport", "CatalogConsole"],
            swiftSettings: swiftSettings),
        // A thin Swift wrapper of SQLite's C API (connections, statements, blobs), shared by the
        // engine and the readers and writers of plain SQLite tables.
        .target(
            name: "SQLiteSupport", dependencies: ["CSQLite", "CatalogStorage", "CatalogConsole"],
            swiftSettings: swiftSettings),
        // The SQLite engine: schema, migrations, storing and reading what CatalogCore builds.
        .target(
            name: "CatalogSQLite",
            dependencies: ["SQLiteSupport", "CatalogModel", "CatalogStorage", "CatalogCore"],
            swiftSettings: swiftSettings
        ),
        // The PostgreSQL engine on libpq: schema, migrations, snapshots, the bulk COPY path, and
        // storing and reading what CatalogCore builds, for several servers on one database.
        .target(
            name: "CatalogPostgres", dependencies: ["CLibPQ", "CatalogModel", "CatalogStorage", "CatalogSupport"],
            swiftSettings: swiftSettings),
        // Opens a database from a location string: the one place that names the engines.
        .target(
            name: "CatalogEngines",
            dependencies: [
                "CatalogModel", "CatalogStorage", "CatalogCore", "CatalogSQLite", "CatalogPostgres", "CatalogCollation",
            ],
            swiftSettings: swiftSettings
        ),
        // Readers (XML on libxml2, JSON, CSV, SQLite tables) and writers for records, and fetching
        // sources from URLs (libcurl, bodies inflated with zlib).
        .target(
            name: "CatalogImport",
            dependencies: [
                "CLibXML2", "CCurl", "CZlib", "CatalogModel", "CatalogStorage", "CatalogCore", "SQLiteSupport",
                "CatalogSupport",
            ],
            swiftSettings: swiftSettings),
        // The three demo catalogs and the synthetic catalog generator.
        .target(name: "CatalogDemo", dependencies: ["CatalogModel", "CatalogSupport"], swiftSettings: swiftSettings),
        // API tokens and password hashes (libsodium): issuing, hashing, verifying in constant time.
        .target(name: "CatalogAuth", dependencies: ["CSodium", "CatalogStorage"], swiftSettings: swiftSettings),
        // The HTTP layer: libmicrohttpd server, requests, responses, router, middleware. No catalogs.
        .target(
            name: "CatalogHTTP",
            dependencies: ["CMicroHTTPD", "CZlib", "CatalogJSON", "CatalogSupport", "CatalogConsole"],
            swiftSettings: swiftSettings),
        // Uploaded images on libgd: recognised by their bytes, checked, decoded and encoded again.
        .target(name: "CatalogImages", dependencies: ["CGD", "CatalogStorage"], swiftSettings: swiftSettings),
        // Writes the Swift file that carries a target's data files (EmbedFiles plugin).
        .executableTarget(name: "FileEmbedder", swiftSettings: swiftSettings),
        // Embeds the files a target lists in its `embedded.txt` (the web app's script modules, stylesheet,
        // icons and message tables, the OpenAPI document) at build time.
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["FileEmbedder"]),
        // The catalog server: JSON API, the original apps' endpoints and feeds, images, favorites.
        .target(
            name: "CatalogServer",
            dependencies: [
                "CGD", "CatalogImages", "CatalogHTTP", "CatalogAuth", "CatalogModel", "CatalogStorage", "CatalogCore",
                "CatalogCollation", "CatalogEngines",
                "CatalogImport", "CatalogDemo", "CatalogSupport", "CatalogConsole", "CMalloc",
            ],
            exclude: ["embedded.txt", "API/openapi.json", "Web/Assets", "Web/Scripts", "Web/Strings"],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "EmbedFiles")]
        ),
        // The Swift client library apps build on: the JSON API over URLSession, and offline
        // catalogs (snapshots) browsed and searched by the same engine-neutral code as the server,
        // read with the SQLite engine's read path (no ICU). Nothing else: a test checks the closure.
        .target(
            name: "CatalogClient",
            dependencies: ["CatalogModel", "CatalogStorage", "CatalogCore", "CatalogSQLite", "CatalogSupport"],
            swiftSettings: swiftSettings
        ),
        // `catalog browse`: the terminal app, built on the client library alone.
        .target(
            name: "CatalogTerminal", dependencies: ["CatalogClient", "CatalogSupport"], swiftSettings: swiftSettings),
        // The documentation's code samples, compiled (never run) so they stay true.
        .target(name: "CatalogClientSamples", dependencies: ["CatalogClient"], swiftSettings: swiftSettings),
        // The `catalog` commands.
        .target(
            name: "CatalogCLI",
            dependencies: [
                "CatalogModel", "CatalogCollation", "CatalogStorage", "CatalogCore", "CatalogEngines", "CatalogImport",
                "CatalogSupport", "CatalogConsole",
                "CatalogDemo", "CatalogAuth", "CatalogServer", "CatalogTerminal", "CatalogImages", "CMalloc",
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "catalog", dependencies: ["CatalogCLI"], swiftSettings: swiftSettings),

        .testTarget(name: "CatalogJSONTests", dependencies: ["CatalogJSON"], swiftSettings: swiftSettings),
        .testTarget(name: "CatalogSupportTests", dependencies: ["CatalogSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogModelTests", dependencies: ["CatalogModel", "CatalogSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "CatalogCollationTests", dependencies: ["CatalogCollation"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogCoreTests", dependencies: ["CatalogCore", "CatalogStorage", "CatalogDemo"],
            swiftSettings: swiftSettings),
        // The behaviour suite: what every engine must do, run against each one.
        .testTarget(
            name: "CatalogStorageTests",
            dependencies: [
                "CatalogStorage", "CatalogCore", "CatalogCollation", "CatalogEngines", "CatalogImport", "CatalogDemo",
                "CatalogTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CatalogSQLiteTests",
            dependencies: [
                "CatalogSQLite", "CatalogEngines", "CatalogCollation", "CatalogCore", "CatalogModel",
                "CatalogTestSupport", "CatalogDemo", "SQLiteSupport", "CatalogStorage",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CatalogPostgresTests",
            dependencies: [
                "CatalogPostgres", "CatalogSQLite", "CatalogEngines", "CatalogCollation", "CatalogCore", "CatalogModel",
                "CatalogStorage", "CatalogDemo", "CatalogTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CatalogImportTests",
            dependencies: [
                "CatalogImport", "CatalogEngines", "CatalogCollation", "CatalogStorage", "SQLiteSupport",
                "CatalogSupport", "CatalogTestSupport",
            ],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogAuthTests",
            dependencies: [
                "CatalogAuth", "CatalogStorage", "CatalogSQLite", "SQLiteSupport", "CatalogEngines", "CatalogCore",
                "CatalogCollation", "CatalogModel", "CatalogTestSupport",
            ],
            swiftSettings: swiftSettings),
        // Helpers shared by test targets: a raw HTTP client over sockets, a loopback HTTP server,
        // fixture files.
        .target(
            name: "CatalogTestSupport", dependencies: ["CatalogEngines", "CatalogStorage", "CZlib"],
            path: "Tests/CatalogTestSupport", resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogHTTPTests", dependencies: ["CatalogHTTP", "CatalogTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogServerTests",
            dependencies: [
                "CatalogServer", "CatalogHTTP", "CatalogAuth", "CatalogStorage", "CatalogCore", "CatalogEngines",
                "CatalogCollation", "CatalogImport", "CatalogDemo", "CatalogSQLite", "CatalogTestSupport", "CGD",
                "CatalogImages",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CatalogClientTests",
            dependencies: [
                "CatalogClient", "CatalogServer", "CatalogHTTP", "CatalogAuth", "CatalogEngines", "CatalogSQLite",
                "CatalogCore", "CatalogStorage", "CatalogCollation", "CatalogImport", "CatalogDemo", "CatalogJSON",
                "CatalogTestSupport",
                // The fault run starts and kills `catalog serve` processes.
                "catalog",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CatalogTerminalTests", dependencies: ["CatalogTerminal", "CatalogClient"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogCLITests",
            dependencies: [
                "CatalogCLI", "catalog", "CatalogEngines", "CatalogStorage", "CatalogSQLite", "SQLiteSupport",
                "CatalogAuth", "CatalogCore", "CatalogCollation", "CatalogModel",
                "CatalogTestSupport",
            ],
            resources: [.copy("Golden")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
