import CatalogModel
import Foundation

/// The formats records are imported from and exported to.
///
/// ```swift
/// let format = ImportFormat(fileExtension: url.pathExtension) ?? (try ImportFormat.detect(fileURL: url))
/// ```
public enum ImportFormat: String, Sendable, CaseIterable, Equatable {
    /// XML: ``XMLRecordReader``, ``XMLRecordWriter``.
    case xml
    /// JSON: ``JSONRecordReader``, ``JSONRecordWriter``.
    case json
    /// CSV (also TSV and semicolon-separated): ``CSVRecordReader``, ``CSVRecordWriter``.
    case csv
    /// A table in an SQLite database (read by the SQLite storage target).
    case sqlite

    /// The format a file extension names, case-insensitively, with or without the dot:
    /// `xml`/`rss`/`atom`, `json`, `csv`/`tsv`/`tab`/`txt`, `sqlite`/`sqlite3`/`db`/`db3`.
    public init?(fileExtension: String) {
        var ext = fileExtension.lowercased()
        if ext.hasPrefix(".") { ext.removeFirst() }
        switch ext {
        case "xml", "rss", "atom": self = .xml
        case "json": self = .json
        case "csv", "tsv", "tab", "txt": self = .csv
        case "sqlite", "sqlite3", "db", "db3": self = .sqlite
        default: return nil
        }
    }

    /// Sniffs a file's first bytes: the SQLite header `SQLite format 3\0` → ``sqlite``; after an
    /// optional UTF-8 byte order mark and whitespace, `<` → ``xml``, `[` or `{` → ``json``;
    /// anything else (an empty file too) → ``csv``.
    ///
    /// - Throws: `.io` when the file cannot be read.
    public static func detect(fileURL: URL) throws(ImportError) -> ImportFormat {
        let source = try ByteSource(fileURL: fileURL, name: fileURL.path)
        let capacity = 4096
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var count = 0
        while count < capacity {
            let n = try source.read(into: buffer + count, count: capacity - count)
            if n == 0 { break }
            count += n
        }
        return detect(UnsafeBufferPointer(start: buffer, count: count))
    }

    /// Sniffs in-memory bytes, like ``detect(fileURL:)``.
    public static func detect(data: Data) -> ImportFormat {
        data.prefix(4096).withUnsafeBytes { raw in detect(raw.bindMemory(to: UInt8.self)) }
    }

    private static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> ImportFormat {
        let sqliteMagic = Array("SQLite format 3".utf8) + [0]
        if bytes.count >= sqliteMagic.count, Array(bytes.prefix(sqliteMagic.count)) == sqliteMagic { return .sqlite }
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < bytes.count, Byte.isWhitespace(bytes[index]) { index += 1 }
        guard index < bytes.count else { return .csv }
        switch bytes[index] {
        case 0x3C: return .xml
        case 0x5B, 0x7B: return .json
        default: return .csv
        }
    }
}
