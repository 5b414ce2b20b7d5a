// client-bench: the client library's figures for `make bench`, each beside its peer, measured in
// the same run on a generated catalog (100,000 records unless --items):
//
//   client-bench [--items N] [--dir DIR] [--queries N] [--catalog-binary PATH]
//
// 1. The snapshot: its build on the server (SQL fast path beside the engine-neutral path), its size
//    beside the server's database, its download over loopback beside curl fetching the same bytes,
//    and the 304 of an unchanged catalog.
// 2. Offline search: p50/p99 of OfflineCatalog on the snapshot beside the server's own in-process
//    search of the same queries (goal: within 1.2×), and the online client over HTTP.
// 3. `catalog browse`: from a cold start to the first results drawn, offline and online, beside
//    sqlite3 printing the first screenful of titles from the same file.
import CatalogClient
import CatalogCollation
import CatalogCore
import CatalogDemo
import CatalogEngines
import CatalogHTTP
import CatalogModel
import CatalogSQLite
import CatalogServer
import CatalogStorage
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

struct Options {
    var items = 100_000
    var directory = "/tmp/catalog-bench"
    var queries = 1_000
    var catalogBinary = ".build/release/catalog"

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            guard let value = iterator.next() else { break }
            switch argument {
            case "--items": items = Int(value) ?? items
            case "--dir": directory = value
            case "--queries": queries = Int(value) ?? queries
            case "--catalog-binary": catalogBinary = value
            default: FileHandle.standardError.write(Data("client-bench: unknown option \(argument)\n".utf8))
            }
        }
    }
}

func line(_ label: String, _ value: String) {
    print("  " + label.padding(toLength: 40, withPad: " ", startingAt: 0) + value)
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return sorted[max(0, min(sorted.count - 1, Int((Double(sorted.count) * p / 100).rounded(.up)) - 1))]
}

func milliseconds(_ start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }

func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }

func fileSize(_ path: String) -> Int64 {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
}

/// Runs a command, returns its wall time in milliseconds and whether it succeeded.
func timed(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) -> (Double, Bool) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = DispatchTime.now().uptimeNanoseconds
    guard (try? process.run()) != nil else { return (0, false) }
    process.waitUntilExit()
    return (milliseconds(start), process.terminationStatus == 0)
}

/// The median of `runs` timings.
func median(_ runs: Int, _ body: () -> (Double, Bool)) -> (Double, Bool) {
    var times: [Double] = []
    var ok = true
    for _ in 0..<runs {
        let (time, success) = body()
        times.append(time)
        ok = ok && success
    }
    return (times.sorted()[times.count / 2], ok)
}

/// Prefixes of real title words as a user types them, a quarter with a scope (the benchmark's
/// usual as-you-type set).
func queries(words: [String], scopes: [String], count: Int) -> [SearchRequest] {
    var state: UInt64 = 7
    func next() -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: (z ^ (z >> 31)) >> 1)
    }
    var result: [SearchRequest] = []
    while result.count < count {
        let pick = next() % words.count
        let word = words[pick * pick / max(1, words.count)]
        let scope = !scopes.isEmpty && next() % 4 == 0 ? scopes[next() % scopes.count] : nil
        var prefix = ""
        for character in word {
            prefix.append(character)
            result.append(SearchRequest(query: prefix, scope: scope, limit: 50))
            if result.count == count { break }
        }
    }
    return result
}

let options = Options(CommandLine.arguments.dropFirst())
try FileManager.default.createDirectory(atPath: options.directory, withIntermediateDirectories: true)
let databasePath = options.directory + "/client-\(options.items).sqlite"
let generator = CatalogGenerator(items: options.items, locale: "en", seed: 1)
print("client-bench: \(options.items) generated records, \(ProcessInfo.processInfo.activeProcessorCount) cores")
print("")

if !FileManager.default.fileExists(atPath: databasePath) {
    let start = DispatchTime.now().uptimeNanoseconds
    let database = try CatalogEngines.open(databasePath)
    var definition = generator.definition
    definition.id = "bench"
    definition.title = "Bench"
    _ = try CatalogImporter.run(
        into: database, definition: definition, replace: true, collation: try ICUCollation(locale: "en"),
        records: { add in
            try generator.forEachRecord { try add($0) }
            return nil
        })
    database.close()
    print(String(format: "generated %@ in %.1f s", databasePath, milliseconds(start) / 1000))
    print("")
}

// MARK: - The server, in process on loopback

let snapshots = options.directory + "/client-snapshots"
try? FileManager.default.removeItem(atPath: snapshots)
var engine = CatalogEngines.Options()
engine.server = true
var serverOptions = CatalogServerOptions(database: try CatalogEngines.open(databasePath, options: engine))
serverOptions.snapshotsDirectory = snapshots
let application = CatalogApplication(options: serverOptions, accessLog: nil, errorLog: { _ in })
var configuration = ServerConfiguration()
configuration.port = 0
configuration.threads = 2
application.configure(&configuration)
let server = HTTPServer(configuration: configuration, responder: application.responder, log: { _ in })
let port = try server.start()
let baseURL = URL(string: "http://127.0.0.1:\(port)")!
application.listening(on: baseURL.absoluteString)
let client = CatalogClient(
    baseURL: baseURL, cache: .directory(URL(fileURLWithPath: options.directory + "/client-cache")))

// MARK: - 1. The snapshot

let snapshotPath = options.directory + "/client-snapshot.sqlite"
try? FileManager.default.removeItem(atPath: snapshotPath)
var start = DispatchTime.now().uptimeNanoseconds
let first = try await client.download(catalog: "bench", to: URL(fileURLWithPath: snapshotPath))
let firstDownload = milliseconds(start)
let snapshotBytes = fileSize(snapshotPath)
var downloads: [Double] = []
for _ in 0..<5 {
    try FileManager.default.removeItem(atPath: snapshotPath)
    start = DispatchTime.now().uptimeNanoseconds
    _ = try await client.download(catalog: "bench", to: URL(fileURLWithPath: snapshotPath))
    downloads.append(milliseconds(start))
}
downloads.sort()
start = DispatchTime.now().uptimeNanoseconds
let unchanged = try await client.download(catalog: "bench", to: URL(fileURLWithPath: snapshotPath))
let revalidation = milliseconds(start)
let curl =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")
    ? median(5) {
        timed("/usr/bin/curl", ["-s", "-o", "/dev/null", baseURL.absoluteString + "/api/v1/catalogs/bench/snapshot"])
    } : (0, false)
let database = try CatalogEngines.open(databasePath)

/// Reads in one scoped read, from synchronous code (the sync `read`, not its async twin).
func inRead<T>(_ body: (any CatalogReader) throws -> T) throws -> T { try database.read(body) }

let generic = options.directory + "/client-generic.sqlite"
start = DispatchTime.now().uptimeNanoseconds
_ = try inRead { reader in
    try SQLiteSnapshotWriter.write(catalog: "bench", from: reader, to: generic, method: .generic) { _ in [:] }
}
let genericBuild = milliseconds(start)
start = DispatchTime.now().uptimeNanoseconds
_ = try inRead { reader in try SQLiteSnapshotWriter.write(catalog: "bench", from: reader, to: generic) { _ in [:] } }
let fastBuild = milliseconds(start)
try? FileManager.default.removeItem(atPath: generic)

print("Offline snapshot of \(options.items) records (GET /api/v1/catalogs/bench/snapshot, loopback)")
line("snapshot size", megabytes(snapshotBytes) + "  (server database: \(megabytes(fileSize(databasePath))))")
line("build on the server, SQL fast path", String(format: "%.0f ms", fastBuild))
line(
    "build, engine-neutral path (peer)",
    String(format: "%.0f ms (%.1f× the fast path)", genericBuild, genericBuild / fastBuild))
line("first download (server builds it)", String(format: "%.0f ms", firstDownload))
line(
    "download, client library",
    String(format: "%.0f ms median of 5 (%.0f MB/s)", downloads[2], Double(snapshotBytes) / downloads[2] / 1000))
if curl.1 {
    line(
        "curl, the same bytes (peer)",
        String(format: "%.0f ms median of 5 (%.0f MB/s)", curl.0, Double(snapshotBytes) / curl.0 / 1000))
}
line(
    "unchanged: If-None-Match, 304",
    String(
        format: "%.1f ms (%@)", revalidation,
        "\(unchanged)".contains("notModified") ? "not modified" : "downloaded again!"))
_ = first
print("")

// MARK: - 2. Offline search beside the server's in-process search

let offline = try OfflineCatalog(at: URL(fileURLWithPath: snapshotPath))
let stored = try inRead { try $0.requireCatalog("bench") }
let detail = try await offline.catalog("bench")
let set = queries(words: generator.titleWords, scopes: Array(detail.scopes.dropFirst()), count: options.queries)
for request in queries(words: generator.titleWords.reversed(), scopes: [], count: 200) {
    _ = try inRead { try $0.search(request.checked(), in: stored).jsonBytes }
    _ = try await offline.search(request, in: "bench")
}
var serverTimes: [Double] = []
var offlineTimes: [Double] = []
var onlineTimes: [Double] = []
var differ = 0
for request in set {
    start = DispatchTime.now().uptimeNanoseconds
    let answer = try inRead { try $0.search(request.checked(), in: stored) }
    _ = answer.jsonBytes
    serverTimes.append(milliseconds(start))
    start = DispatchTime.now().uptimeNanoseconds
    let local = try await offline.search(request, in: "bench")
    offlineTimes.append(milliseconds(start))
    if local.items.map(\.record.id) != answer.hits.map(\.stored.id) || local.total != answer.total { differ += 1 }
}
for request in set.prefix(300) {
    start = DispatchTime.now().uptimeNanoseconds
    _ = try await client.search(request, in: "bench")
    onlineTimes.append(milliseconds(start))
}
serverTimes.sort()
offlineTimes.sort()
onlineTimes.sort()
func figures(_ times: [Double]) -> String {
    String(
        format: "p50 %.2f ms  p99 %.2f ms  max %.2f ms", percentile(times, 50), percentile(times, 99), times.last ?? 0)
}
print("As-you-type search, \(set.count) queries (\(set.filter { $0.scope != nil }.count) with a scope), limit 50")
line("server in process (search + JSON) (peer)", figures(serverTimes))
line("OfflineCatalog on the snapshot", figures(offlineTimes))
line(
    "ratio offline / server",
    String(
        format: "p50 %.2f×  p99 %.2f×  (goal ≤ 1.2×)", percentile(offlineTimes, 50) / percentile(serverTimes, 50),
        percentile(offlineTimes, 99) / percentile(serverTimes, 99)))
line("online client over loopback HTTP", figures(onlineTimes) + " (\(onlineTimes.count) queries)")
line("answers that differ", "\(differ) of \(set.count)")
print("")

// MARK: - 3. catalog browse: cold start to the first results drawn

let binary = options.catalogBinary
if FileManager.default.isExecutableFile(atPath: binary), FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
{
    let environment = [
        "CATALOG_BROWSE_EXIT_AFTER_FIRST_RESULTS": "1", "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30",
    ]
    let offlineStart = median(7) {
        timed(
            "/usr/bin/script", ["-qec", "\(binary) browse --offline \(snapshotPath)", "/dev/null"],
            environment: environment)
    }
    let onlineStart = median(7) {
        timed(
            "/usr/bin/script", ["-qec", "\(binary) browse \(baseURL.absoluteString) --catalog bench", "/dev/null"],
            environment: environment)
    }
    let sqlite =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")
        ? median(7) {
            timed(
                "/usr/bin/sqlite3",
                [snapshotPath, "SELECT title FROM items ORDER BY version, section, sort_key, id LIMIT 30"])
        }
        : (0, false)
    print("catalog browse: from a cold start to the first results drawn (100×30, median of 7)")
    line(
        "catalog browse --offline FILE", String(format: "%.0f ms%@", offlineStart.0, offlineStart.1 ? "" : " (failed)"))
    line(
        "catalog browse URL --catalog bench",
        String(format: "%.0f ms%@", onlineStart.0, onlineStart.1 ? "" : " (failed)"))
    if sqlite.1 { line("sqlite3, the first 30 titles (peer)", String(format: "%.0f ms", sqlite.0)) }
} else {
    print("catalog browse: skipped (no \(binary), or no /usr/bin/script)")
}

offline.close()
database.close()
server.shutdown()
application.close()
