// Issue 22: a JSON object keyed by id (`{"3040051": {...}, ...}`) imported beside the same records
// as an array, 235,000 city-like records (CityFiles), each into a new database, and the keyed file
// again on one line as minified files come: wall and CPU seconds, peak RSS, the keyed files' CPU
// time as a multiple of the array's (goal ≤ 1.2×), and how soon an error in the keyed file's first
// record is reported (goal: well under a second), for a record without a title (found by the
// mapping), for malformed JSON inside the first member, and for the one-line file.
import Foundation

enum KeyedJSONFigures {
    static func run(binary: String, directory: String, records: Int = 235_000) throws {
        let keyed = directory + "/cities-\(records)-keyed.json"
        let array = directory + "/cities-\(records)-array.json"
        let noTitle = directory + "/cities-\(records)-keyed-no-title.json"
        let malformed = directory + "/cities-\(records)-keyed-malformed.json"
        let oneLine = directory + "/cities-\(records)-keyed-one-line.json"
        let oneLineNoTitle = directory + "/cities-\(records)-keyed-one-line-no-title.json"
        if !FileManager.default.fileExists(atPath: keyed) || !FileManager.default.fileExists(atPath: array) {
            try CityFiles.write(count: records, keyedPath: keyed, arrayPath: array)
        }
        if !FileManager.default.fileExists(atPath: noTitle) {
            try CityFiles.write(count: records, keyedPath: noTitle, arrayPath: nil, firstRecord: .noTitle)
        }
        if !FileManager.default.fileExists(atPath: malformed) {
            try CityFiles.write(count: records, keyedPath: malformed, arrayPath: nil, firstRecord: .malformed)
        }
        if !FileManager.default.fileExists(atPath: oneLine) {
            try CityFiles.write(count: records, keyedPath: oneLine, arrayPath: nil, oneLine: true)
        }
        if !FileManager.default.fileExists(atPath: oneLineNoTitle) {
            try CityFiles.write(
                count: records, keyedPath: oneLineNoTitle, arrayPath: nil, firstRecord: .noTitle, oneLine: true)
        }
        let database = directory + "/keyed-json.sqlite"
        let errors = directory + "/keyed-json-errors.txt"
        func removeDatabase() {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database + suffix) }
            let users = (database as NSString).deletingPathExtension + "-users.sqlite"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: users + suffix) }
        }
        func importFile(_ file: String) throws -> Child.Result {
            removeDatabase()
            defer { removeDatabase() }
            return try Spawn.run(
                binary, ["import", file, "--catalog", "cities", "--field", "title=name", "--db", database, "--quiet"],
                stderr: errors)
        }
        func size(_ path: String) -> Int64 {
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? 0
        }
        func figures(_ result: Child.Result) -> String {
            String(
                format: "%.2f s, %.2f s CPU, peak RSS %d MB", result.seconds, result.cpuSeconds, result.peakRSSMiB)
        }

        print("JSON keyed by id beside the same \(records) city-like records as an array, new files (\(Load.now))")
        var cpu: [Double] = []
        for (label, file) in [
            ("JSON array", array), ("JSON object keyed by id", keyed), ("  the same on one line", oneLine),
        ] {
            let result = try importFile(file)
            cpu.append(result.cpuSeconds)
            let failed =
                result.status == 0 ? "" : " FAILED: " + ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
            print(Report.line("\(label) (\(size(file) / 1_000_000) MB)", figures(result) + failed))
        }
        if cpu.count == 3, cpu[0] > 0 {
            let ratio = max(cpu[1], cpu[2]) / cpu[0]
            print(
                Report.line(
                    "  keyed ÷ array, CPU", String(format: "%.2f× (goal ≤ 1.2×) %@", ratio, verdict(ratio <= 1.2))))
        }
        let firstErrors = [
            ("  first record without a title", noTitle), ("  first record malformed", malformed),
            ("  … without a title, on one line", oneLineNoTitle),
        ]
        for (label, file) in firstErrors {
            let result = try importFile(file)
            let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            let message = text.split(separator: "\n").first.map { String($0.prefix(100)) } ?? ""
            let reported = result.status != 0 && !message.isEmpty
            let timing = String(format: "%.2f s to the error (goal < 1 s) ", result.seconds)
            print(
                Report.line(
                    label,
                    timing + verdict(reported && result.seconds < 1) + (reported ? ": " + message : " (no error)")))
        }
        print("")
    }
}
