import CatalogImport
import CatalogModel
import CatalogTestSupport
import Foundation
import Testing

/// Reads every record of `source`.
func readAll(_ source: some RecordSource) throws -> [SourceRecord] {
    var records: [SourceRecord] = []
    try source.forEachRecord { records.append($0) }
    return records
}

/// `name=value` for each field, in order: easy to compare and to read in failures.
func pairs(_ record: SourceRecord) -> [String] {
    record.fields.map { "\($0.name)=\($0.value)" }
}

/// The `ImportError` `body` throws (records before it are ignored), or nil.
func importError(_ body: () throws -> Void) -> ImportError? {
    do {
        try body()
        return nil
    } catch let error as ImportError {
        return error
    } catch {
        Issue.record("expected an ImportError, got \(error)")
        return nil
    }
}

/// The error reading all of `source` throws.
func readError(_ source: some RecordSource) -> ImportError? {
    importError { _ = try readAll(source) }
}

/// A fresh temporary directory, removed by `cleanup()`.
struct TemporaryDirectory: ~Copyable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "catalog-import-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Resident memory of this process in bytes (Linux `/proc/self/statm`).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let parts = text.split(separator: " ")
    guard parts.count > 1, let pages = Int(parts[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// Writes a file of about `targetBytes` by calling `chunk(i)` until it is big enough.
func writeLargeFile(
    at url: URL, targetBytes: Int, header: String, footer: String, chunk: (Int) -> String
) throws -> Int {
    _ = FileManager.default.createFile(atPath: url.path, contents: nil)
    let handle = try FileHandle(forWritingTo: url)
    defer { try? handle.close() }
    var written = 0
    var buffer = header
    var index = 0
    while written + buffer.utf8.count < targetBytes {
        for _ in 0..<1000 {
            buffer += chunk(index)
            index += 1
        }
        let data = Data(buffer.utf8)
        try handle.write(contentsOf: data)
        written += data.count
        buffer = ""
    }
    try handle.write(contentsOf: Data((buffer + footer).utf8))
    return index
}

extension Data {
    /// UTF-8 bytes of `text`.
    init(utf8 text: String) { self = Data(text.utf8) }
}
