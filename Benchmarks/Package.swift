// swift-tools-version:6.0
import PackageDescription

// Benchmarks live apart from the tests: `make bench` builds this package in release mode and
// runs it against the `catalog` binary built from the main package.
let package = Package(
    name: "CatalogBenchmarks",
    platforms: [.macOS(.v15), .iOS(.v18)],
    // The main package, named so the products below do not depend on the checkout folder's name.
    dependencies: [.package(name: "CatalogRoot", path: "..")],
    targets: [
        // libpq, for the naive PostgreSQL full-text peer.
        .systemLibrary(name: "CBenchPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .executableTarget(
            name: "catalog-bench",
            dependencies: [
                "CBenchPQ",
                .product(name: "CatalogModel", package: "CatalogRoot"),
                .product(name: "CatalogCollation", package: "CatalogRoot"),
                .product(name: "CatalogStorage", package: "CatalogRoot"),
                .product(name: "CatalogCore", package: "CatalogRoot"),
                .product(name: "CatalogEngines", package: "CatalogRoot"),
                .product(name: "SQLiteSupport", package: "CatalogRoot"),
                .product(name: "CatalogImport", package: "CatalogRoot"),
                .product(name: "CatalogDemo", package: "CatalogRoot"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The client library: snapshots, offline search beside the server's, `catalog browse`'s start.
        .executableTarget(
            name: "client-bench",
            dependencies: [
                .product(name: "CatalogClient", package: "CatalogRoot"),
                .product(name: "CatalogModel", package: "CatalogRoot"),
                .product(name: "CatalogCollation", package: "CatalogRoot"),
                .product(name: "CatalogStorage", package: "CatalogRoot"),
                .product(name: "CatalogCore", package: "CatalogRoot"),
                .product(name: "CatalogSQLite", package: "CatalogRoot"),
                .product(name: "CatalogEngines", package: "CatalogRoot"),
                .product(name: "CatalogDemo", package: "CatalogRoot"),
                .product(name: "CatalogHTTP", package: "CatalogRoot"),
                .product(name: "CatalogServer", package: "CatalogRoot"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
