// swift-tools-version:6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "Catalog",
    products: [
        .executable(name: "catalog", targets: ["catalog"]),
        .library(name: "CatalogModel", targets: ["CatalogModel"]),
        .library(name: "CatalogCollation", targets: ["CatalogCollation"]),
        .library(name: "CatalogStorage", targets: ["CatalogStorage"]),
        .library(name: "CatalogSQLite", targets: ["CatalogSQLite"]),
        .library(name: "CatalogImport", targets: ["CatalogImport"]),
        .library(name: "CatalogDemo", targets: ["CatalogDemo"]),
        .library(name: "CatalogAuth", targets: ["CatalogAuth"]),
        .library(name: "CatalogHTTP", targets: ["CatalogHTTP"]),
        .library(name: "CatalogServer", targets: ["CatalogServer"]),
    ],
    targets: [
        // C libraries from Debian, behind thin module maps and shims.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CGD", pkgConfig: "gdlib", providers: [.apt(["libgd-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // ICU (Debian's libicu) behind an opaque C header of our own, so no Swift module ever sees
        // ICU's types next to Foundation's private copy of ICU.
        .target(
            name: "CICU",
            cxxSettings: [.unsafeFlags(["-std=c++17"])],
            linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"), .linkedLibrary("icudata")]
        ),

        // Records, catalog definitions, text folding, query parsing, field mapping. No I/O.
        .target(name: "CatalogModel", swiftSettings: swiftSettings),
        // Locale collation (sort keys) and alphabetic sections.
        .target(name: "CatalogCollation", dependencies: ["CICU", "CatalogModel"], swiftSettings: swiftSettings),
        // The storage protocol every engine implements.
        .target(name: "CatalogStorage", dependencies: ["CatalogModel"], swiftSettings: swiftSettings),
        // The SQLite engine: schema, migrations, import pipeline, browsing and search.
        .target(
            name: "CatalogSQLite",
            dependencies: ["CSQLite", "CatalogModel", "CatalogCollation", "CatalogStorage"],
            swiftSettings: swiftSettings
        ),
        // Readers (XML on libxml2, JSON, CSV) and writers for records, and fetching sources from URLs.
        .target(
            name: "CatalogImport", dependencies: ["CLibXML2", "CatalogModel", "CatalogStorage"],
            swiftSettings: swiftSettings),
        // The three demo catalogs and the synthetic catalog generator.
        .target(name: "CatalogDemo", dependencies: ["CatalogModel"], swiftSettings: swiftSettings),
        // API tokens and password hashes (libsodium): issuing, hashing, verifying in constant time.
        .target(name: "CatalogAuth", dependencies: ["CSodium", "CatalogStorage"], swiftSettings: swiftSettings),
        // The HTTP layer: libmicrohttpd server, requests, responses, router, middleware. No catalogs.
        .target(name: "CatalogHTTP", dependencies: ["CMicroHTTPD", "CZlib"], swiftSettings: swiftSettings),
        // The catalog server: JSON API, the original apps' endpoints and feeds, images, favorites.
        .target(
            name: "CatalogServer",
            dependencies: [
                "CGD", "CatalogHTTP", "CatalogAuth", "CatalogModel", "CatalogStorage", "CatalogSQLite", "CatalogImport",
                "CatalogDemo",
            ],
            swiftSettings: swiftSettings
        ),
        // The `catalog` commands.
        .target(
            name: "CatalogCLI",
            dependencies: [
                "CatalogModel", "CatalogCollation", "CatalogStorage", "CatalogSQLite", "CatalogImport", "CatalogDemo",
                "CatalogAuth", "CatalogServer",
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "catalog", dependencies: ["CatalogCLI"], swiftSettings: swiftSettings),

        .testTarget(name: "CatalogModelTests", dependencies: ["CatalogModel"], swiftSettings: swiftSettings),
        .testTarget(name: "CatalogCollationTests", dependencies: ["CatalogCollation"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogSQLiteTests",
            dependencies: ["CatalogSQLite", "CatalogImport", "CatalogDemo", "CatalogTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CatalogImportTests", dependencies: ["CatalogImport", "CatalogTestSupport"],
            swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogAuthTests", dependencies: ["CatalogAuth", "CatalogSQLite", "CatalogTestSupport"],
            swiftSettings: swiftSettings),
        // Helpers shared by test targets: a raw HTTP client over sockets, a loopback HTTP server,
        // fixture files.
        .target(
            name: "CatalogTestSupport", dependencies: ["CatalogSQLite"], path: "Tests/CatalogTestSupport",
            resources: [.copy("Fixtures")], swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogHTTPTests", dependencies: ["CatalogHTTP", "CatalogTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogServerTests",
            dependencies: [
                "CatalogServer", "CatalogHTTP", "CatalogAuth", "CatalogSQLite", "CatalogImport", "CatalogDemo",
                "CatalogTestSupport",
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CatalogCLITests",
            dependencies: ["CatalogCLI", "catalog", "CatalogTestSupport"],
            resources: [.copy("Golden")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
