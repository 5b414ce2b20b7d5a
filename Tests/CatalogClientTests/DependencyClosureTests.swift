import Foundation
import Testing

/// What an app that depends on CatalogClient gets: the targets in its closure, read from
/// `swift package describe --type json` (and their settings from `swift package dump-package`).
/// Nothing else may creep in: no ICU, libmicrohttpd, libsodium, libgd, zlib or libxml2, no
/// `unsafeFlags`, nothing Linux-only.
@Suite struct DependencyClosureTests {
    /// CatalogClient and what it may depend on: the record model and its JSON rules, the shared
    /// text rules and standard streams below it, the storage protocols, the engine-neutral search
    /// core, and the SQLite engine's read path with its C wrapper.
    static let allowed: Set<String> = [
        "CatalogClient", "CatalogJSON", "CatalogSupport", "CatalogConsole", "CatalogModel", "CatalogStorage",
        "CatalogCore", "CatalogSQLite", "SQLiteSupport", "CSQLite",
    ]

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `swift package ARGUMENTS` on the package with a scratch directory of its own, so it
    /// never waits for the build directory that the running tests hold.
    static func swiftPackage(_ arguments: [String]) throws -> Data {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        let swift = ["/opt/swift/usr/bin/swift", "/usr/bin/swift"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        process.executableURL = URL(fileURLWithPath: swift ?? "/usr/bin/env")
        process.arguments =
            (swift == nil ? ["swift"] : []) + [
                "package", "--package-path", packageRoot.path, "--scratch-path", scratch.path,
            ]
            + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return data
    }

    @Test func theClientsClosureIsTheModelTheCoreAndSQLite() throws {
        let description = try #require(
            try JSONSerialization.jsonObject(with: Self.swiftPackage(["describe", "--type", "json"])) as? [String: Any])
        let targets = try #require(description["targets"] as? [[String: Any]])
        let dependencies = Dictionary(
            uniqueKeysWithValues: targets.compactMap { target -> (String, [String])? in
                guard let name = target["name"] as? String else { return nil }
                return (name, target["target_dependencies"] as? [String] ?? [])
            })
        var closure: Set<String> = []
        var queue = ["CatalogClient"]
        while let next = queue.popLast() {
            guard closure.insert(next).inserted else { continue }
            queue += dependencies[next] ?? []
        }
        #expect(closure == Self.allowed, "the closure grew: \(closure.subtracting(Self.allowed).sorted())")
        let product = (description["products"] as? [[String: Any]])?.first { $0["name"] as? String == "CatalogClient" }
        #expect(product?["targets"] as? [String] == ["CatalogClient"])
        let platforms = (description["platforms"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
        #expect(Set(platforms).isSuperset(of: ["macos", "ios"]))
    }

    /// No target the client reaches has unsafe flags or links anything but SQLite.
    @Test func noUnsafeFlagsAndOnlySQLiteIsLinked() throws {
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Self.swiftPackage(["dump-package"])) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        for target in targets {
            guard let name = target["name"] as? String, Self.allowed.contains(name) else { continue }
            let settings = target["settings"] as? [[String: Any]] ?? []
            let text = String(describing: settings)
            #expect(!text.contains("unsafeFlags"), "\(name) has unsafe flags")
            #expect(!text.contains("linkedLibrary"), "\(name) links a library")
            if target["type"] as? String == "system" {
                #expect(target["pkgConfig"] as? String == "sqlite3")
                let map = try String(
                    contentsOf: Self.packageRoot.appendingPathComponent("Sources/\(name)/module.modulemap"),
                    encoding: .utf8)
                #expect(map.contains("link \"sqlite3\"") && map.components(separatedBy: "link ").count == 2)
            }
        }
    }

    /// The client's sources build on Apple platforms in principle: every import of a Linux-only
    /// module sits inside a `canImport` branch.
    @Test func nothingLinuxOnly() throws {
        for name in Self.allowed where name != "CSQLite" {
            let folder = Self.packageRoot.appendingPathComponent("Sources/\(name)")
            let files =
                FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            #expect(!files.isEmpty)
            for file in files {
                let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
                for (number, line) in lines.enumerated() {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    for module in ["Glibc", "FoundationNetworking", "Musl", "Android"]
                    where trimmed == "import \(module)" {
                        let guarded = lines[..<number].reversed().first { $0.contains("#if") || $0.contains("#elseif") }
                        #expect(
                            guarded?.contains("canImport(\(module))") == true,
                            "\(file.lastPathComponent):\(number + 1) imports \(module) without #if canImport")
                    }
                }
            }
        }
    }
}
