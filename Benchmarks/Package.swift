// swift-tools-version:6.0
import PackageDescription

// Benchmarks live apart from the tests: `make bench` builds this package in release mode and
// runs it against the `catalog` binary built from the main package.
let package = Package(
    name: "CatalogBenchmarks",
    dependencies: [.package(path: "CatalogRoot")],
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
    ],
    swiftLanguageModes: [.v6]
)
