// The rest of issue 8's import figures and issue 11's Tantivy peer, kept apart from main.swift:
//
// - re-imports into the existing catalog, each beside the bare `xmllint --stream` time of its file:
//   (a) the same file unchanged, (b) the same records in a rewritten file (the catalog's XML export),
//   (c) 1% of the records changed (every 100th record's price, in a copy of the XML);
// - JSON and CSV import of the same records (the catalog's exports) into new files;
// - issue 22's JSON object keyed by id beside the same records as an array (KeyedJSONFigures);
// - one XML import with CATALOG_PROFILE=1, its per-step breakdown printed;
// - Tantivy (Benchmarks/tantivy/tantivy_bench.py, from the venv scripts/install-deps.sh bench makes)
//   on the JSON export, answering the same queries, written to a file.
import CatalogDemo
import CatalogImport
import CatalogModel
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process with its standard output and error sent to files (or /dev/null, or inherited),
/// extra environment variables, timed, with its peak resident memory.
enum Spawn {
    static func run(
        _ path: String, _ arguments: [String], stdout: String? = "/dev/null", stderr: String? = nil,
        environment extra: [String: String] = [:]
    ) throws -> Child.Result {
        fflush(nil)  // every stream: what was printed goes before the child's output
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout { posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        if let stderr { posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        var pid: pid_t = 0
        let started = Date()
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard rc == 0 else { throw NSError(domain: "spawn \(path)", code: Int(rc)) }
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        let seconds = Date().timeIntervalSince(started)
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let cpu = [usage.ru_utime, usage.ru_stime].reduce(0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
        return Child.Result(
            status: exit, seconds: seconds, peakRSSMiB: Int(usage.ru_maxrss) / 1024, cpuSeconds: cpu)
    }
}

enum Load {
    /// The 1-minute load average, for the lines that carry timings on a shared machine.
    static var now: String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return "load " + (text.split(separator: " ").first.map(String.init) ?? "?")
    }
}

func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }

struct ImportFigures {
    var jsonExport: String?
    /// The seconds of importing the whole file into a new database (what a change cost before
    /// records changed in place).
    var changedReimportSeconds: Double?

    /// Runs after the first XML import into `databasePath` (catalog "bench").
    static func run(
        options: BenchOptions, generator: CatalogGenerator, xmlPath: String, databasePath: String,
        xmllintPath: String?
    ) throws -> ImportFigures {
        let binary = options.catalogBinary
        let directory = options.directory
        let items = Double(options.items)
        let errors = directory + "/import-errors.txt"

        func xmllint(_ file: String) throws -> Child.Result? {
            guard let xmllintPath else { return nil }
            return try Spawn.run(xmllintPath, ["--stream", "--noout", file])
        }
        func importInto(_ database: String, _ file: String, _ extra: [String] = [], profile: Bool = false)
            throws -> Child.Result
        {
            let result = try Spawn.run(
                binary, ["import", file, "--catalog", "bench", "--db", database, "--quiet"] + extra,
                stderr: errors, environment: profile ? ["CATALOG_PROFILE": "1"] : [:])
            if result.status != 0 {
                print("  import of \(file) failed (status \(result.status)):")
                print((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
            }
            return result
        }
        func removeDatabase(_ path: String) {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            let users = (path as NSString).deletingPathExtension + "-users.sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: users + suffix) }
        }
        func size(_ path: String) -> Int64 {
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
        }
        func rate(_ result: Child.Result) -> String {
            String(
                format: "%.2f s, %.0f records/s, peak RSS %d MB", result.seconds, items / result.seconds,
                result.peakRSSMiB)
        }

        // Exports of the imported catalog: the rewritten XML for (b), JSON and CSV for their imports.
        print("Exports of the imported catalog (catalog export --format …; \(Load.now))")
        var exports: [String: String] = [:]
        for format in ["xml", "json", "csv"] {
            let path = directory + "/export-\(options.items).\(format)"
            let result = try Spawn.run(
                binary,
                ["export", "--catalog", "bench", "--format", format, "--output", path, "--db", databasePath],
                stderr: errors)
            guard result.status == 0 else {
                print(Report.line(format, "export failed (status \(result.status))"))
                continue
            }
            exports[format] = path
            print(
                Report.line(
                    "export --format \(format)",
                    String(
                        format: "%.2f s, %d MB, peak RSS %d MB", result.seconds, size(path) / 1_000_000,
                        result.peakRSSMiB)))
        }
        print("")

        // (c)'s input: the same generated records, every 100th with another price.
        let changedPath = directory + "/catalog-\(options.items)-changed.xml"
        if !FileManager.default.fileExists(atPath: changedPath) {
            try ChangedFile.writeXML(generator: generator, everyNth: 100, to: changedPath)
        }

        print("XML re-import into the existing catalog, each beside xmllint --stream on its file (\(Load.now))")
        let cases: [(String, String?, Double?)] = [
            ("(a) same file unchanged", xmlPath, 3),
            ("(b) same records, rewritten file", exports["xml"], nil),
            ("(c) 1% of records changed", changedPath, 4),
        ]
        for (label, file, goal) in cases {
            guard let file else {
                print(Report.line(label, "no file (its export failed)"))
                continue
            }
            let peer = try xmllint(file)
            let result = try importInto(databasePath, file)
            let goalText: String
            if let peer {
                let ratio = result.seconds / peer.seconds
                if let goal {
                    goalText = String(format: "%.2f× xmllint (goal ≤ %.0f×) %@", ratio, goal, verdict(ratio <= goal))
                } else {
                    goalText = String(format: "%.2f× xmllint (issue 8 sets no goal for this case)", ratio)
                }
            } else {
                goalText = "xmllint not installed"
            }
            print(Report.line(label, rate(result) + (result.status == 0 ? "" : " FAILED")))
            if let peer {
                print(
                    Report.line(
                        "  xmllint --stream, same file",
                        String(format: "%.2f s (%d MB)", peer.seconds, size(file) / 1_000_000)))
            }
            print(Report.line("  ratio", goalText))
        }
        // What follows (search, the PostgreSQL comparison, the server benchmarks) expects the
        // generated records as a fresh import writes them: (c) changed 1% of them, as changes (a
        // segment of its own), so the file is imported again into a new database.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: databasePath + suffix) }
        let restored = try importInto(databasePath, xmlPath)
        print(Report.line("  (the generated records again)", rate(restored)))
        print("")

        print("JSON and CSV import of the same records into a new file (\(Load.now))")
        let fresh = directory + "/import-format.sqlite"
        for format in ["json", "csv"] {
            guard let file = exports[format] else { continue }
            removeDatabase(fresh)
            let result = try importInto(fresh, file)
            let met = items / result.seconds >= 50_000 && result.peakRSSMiB < 200
            print(
                Report.line(
                    "\(format.uppercased()) import (\(size(file) / 1_000_000) MB)",
                    rate(result)
                        + (result.status == 0
                            ? " (goal ≥ 50,000 records/s, RSS < 200 MB) \(verdict(met))" : " FAILED")))
        }
        if let peer = try xmllint(xmlPath) {
            print(Report.line("  xmllint --stream on the XML", String(format: "%.2f s", peer.seconds)))
        }
        removeDatabase(fresh)
        print("")

        try KeyedJSONFigures.run(binary: binary, directory: directory)

        // The breakdown: one more XML import into a new file, CATALOG_PROFILE=1.
        let profileLog = directory + "/import-profile.txt"
        removeDatabase(fresh)
        let profiled = try Spawn.run(
            binary, ["import", xmlPath, "--catalog", "bench", "--db", fresh, "--quiet"], stderr: profileLog,
            environment: ["CATALOG_PROFILE": "1"])
        print("XML import with CATALOG_PROFILE=1 into a new file: \(rate(profiled)) (\(Load.now))")
        let profile = (try? String(contentsOfFile: profileLog, encoding: .utf8)) ?? ""
        for line in profile.split(separator: "\n") { print("    " + line) }
        removeDatabase(fresh)
        print("")
        return ImportFigures(jsonExport: exports["json"], changedReimportSeconds: restored.seconds)
    }
}

enum ChangedFile {
    /// The generated records with every `everyNth` record's price raised by 1.
    static func writeXML(generator: CatalogGenerator, everyNth: Int, to path: String) throws {
        let temporary = path + ".partial"
        FileManager.default.createFile(atPath: temporary, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
        var sink = FileHandleSink(handle, name: temporary, bufferSize: 1 << 20)
        var writer = XMLRecordWriter(rootElement: "catalog", recordElement: "record")
        let mapper = RecordMapper(definition: generator.definition)
        try writer.writeStart(to: &sink)
        var index = 0
        try generator.forEachRecord { record in
            var record = record
            if index % everyNth == everyNth - 1 { record.price = (record.price ?? 0) + 1 }
            index += 1
            try writer.write(mapper.sourceRecord(from: record), to: &sink)
        }
        try writer.writeEnd(to: &sink)
        try handle.close()
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }
}

/// Tantivy on the same records and queries, in its own process.
enum TantivyPeer {
    struct Result {
        var lines: [String]
        var p50: Double
        var p99: Double
        /// The other kinds it timed (`filtered`, `sorted`: FilteredSearchFigures).
        var kinds: [String: (p50: Double, p99: Double, max: Double)] = [:]
    }

    /// The query kinds it times beside `query`: the same queries with a price range and the
    /// category facet (FilteredSearchFigures), ranked, then sorted by price.
    static let filteredKinds = ["filtered", "sorted"]

    static func writeQueries(warm: [BenchQuery], timed: [BenchQuery], to path: String) throws {
        func clean(_ text: String) -> String {
            text.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ")
        }
        var text = ""
        for (kind, queries) in [("warm", warm), ("query", timed)] + filteredKinds.map({ ($0, timed) }) {
            for query in queries { text += "\(kind)\t\(clean(query.scope ?? ""))\t\(clean(query.text))\n" }
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The venv's python (CATALOG_BENCH_TANTIVY_PYTHON overrides) and the script, from the current
    /// directory (make runs from the repository) or from this executable's place.
    static func locate() -> (python: String, script: String)? {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        let fromExecutable = executable.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path  // Benchmarks/.build/release/catalog-bench → Benchmarks
        for benchmarks in ["Benchmarks", fromExecutable] {
            let python =
                ProcessInfo.processInfo.environment["CATALOG_BENCH_TANTIVY_PYTHON"]
                ?? benchmarks + "/.cache/tantivy-venv/bin/python"
            let script = benchmarks + "/tantivy/tantivy_bench.py"
            if FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script) {
                return (python, script)
            }
        }
        return nil
    }

    static func measure(directory: String, records: String?, warm: [BenchQuery], timed: [BenchQuery]) throws
        -> Result?
    {
        guard let records else { return Result(lines: [Report.line("Tantivy", "no JSON export")], p50: 0, p99: 0) }
        guard let located = locate() else {
            return Result(
                lines: [Report.line("Tantivy", "not installed (scripts/install-deps.sh bench makes its venv)")],
                p50: 0, p99: 0)
        }
        let (python, script) = located
        let queries = directory + "/queries.tsv"
        let output = directory + "/tantivy-output.txt"
        let resultPath = directory + "/tantivy-result.json"
        try? FileManager.default.removeItem(atPath: resultPath)
        try writeQueries(warm: warm, timed: timed, to: queries)
        let run = try Spawn.run(
            python, [script, records, queries, directory + "/tantivy-index", resultPath], stdout: output,
            stderr: directory + "/tantivy-errors.txt")
        var lines = ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").split(separator: "\n").map(
            String.init)
        guard run.status == 0, let data = FileManager.default.contents(atPath: resultPath),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let p50 = object["p50"] as? Double, let p99 = object["p99"] as? Double
        else {
            let errors = (try? String(contentsOfFile: directory + "/tantivy-errors.txt", encoding: .utf8)) ?? ""
            lines.append(Report.line("Tantivy", "failed (status \(run.status)): " + errors.suffix(400)))
            return Result(lines: lines, p50: 0, p99: 0)
        }
        // Its own VmHWM, which it prints: wait4's ru_maxrss of a child spawned here starts at this
        // process's peak (Linux keeps it across exec), and this process has the catalog mapped by now.
        lines.append(Report.line("  (Tantivy process)", String(format: "%.0f s in all", run.seconds)))
        try? FileManager.default.removeItem(atPath: directory + "/tantivy-index")
        var result = Result(lines: lines, p50: p50, p99: p99)
        for kind in filteredKinds {
            if let figures = object[kind] as? [String: Double], let p50 = figures["p50"], let p99 = figures["p99"] {
                result.kinds[kind] = (p50, p99, figures["max"] ?? 0)
            }
        }
        return result
    }
}
