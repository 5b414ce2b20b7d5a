// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the readers, the feed body decoder, the query parser, the image reader and
// the client's event-stream reader, apart from the
// main package like the benchmarks. `Fuzz/run-fuzzers.sh` builds them with `swift build --sanitize=fuzzer
// --sanitize=address` (which instruments this package and every target it depends on, and
// compiles the fuzzers as libraries whose entry point is `LLVMFuzzerTestOneInput`) and runs each
// for a bounded time over its corpus in `Fuzz/Corpus/NAME`. `make fuzz` and `make test` call it.
let targets = [
    "FuzzXML", "FuzzJSON", "FuzzCSV", "FuzzSQLiteValue", "FuzzSearchQuery", "FuzzRecordJSON", "FuzzContentDecoder",
    "FuzzRecordChanges", "FuzzServerSentEvents", "FuzzImageReader", "FuzzFilterExpression",
]

let package = Package(
    name: "CatalogFuzz",
    platforms: [.macOS(.v15), .iOS(.v18)],
    // The main package by its path under a fixed name (as the benchmarks do): a symlink to it
    // inside this folder looped back into the tree.
    dependencies: [.package(name: "CatalogRoot", path: "..")],
    targets: targets.map { name in
        .executableTarget(
            name: name,
            dependencies: [
                .product(name: "CatalogModel", package: "CatalogRoot"),
                .product(name: "CatalogImport", package: "CatalogRoot"),
                .product(name: "SQLiteSupport", package: "CatalogRoot"),
                .product(name: "CatalogImages", package: "CatalogRoot"),
                .product(name: "CatalogStorage", package: "CatalogRoot"),
            ]
                // The event-stream reader is the client library's.
                + (name == "FuzzServerSentEvents" ? [.product(name: "CatalogClient", package: "CatalogRoot")] : [])
        )
    },
    swiftLanguageModes: [.v6]
)
