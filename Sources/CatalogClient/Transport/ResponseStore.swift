import CatalogModel
import CatalogSupport
import Foundation
import Synchronization

/// Answers kept on disk with their ETags, so the next request for the same URL sends
/// `If-None-Match` and an unchanged answer costs a 304 without a body.
///
/// One file per URL (and signed-in user) in the directory, written to a temporary name and
/// renamed, so a crash never leaves half an entry; a damaged or foreign file is ignored. The
/// directory is kept under ``maxBytes``: now and then the least recently written entries go.
final class ResponseStore: Sendable {
    /// A stored answer.
    struct Entry: Sendable, Equatable {
        /// The ETag the server sent with it.
        var etag: String?
        /// The body.
        var body: Data
        /// When it was stored.
        var stored: Date
        /// How long it may be used without asking the server (`Cache-Control: max-age`), 0 for
        /// always revalidating.
        var maxAge: TimeInterval
    }

    /// Where the entries are.
    let directory: URL
    /// The most bytes kept.
    let maxBytes: Int
    private let writes = Atomic<Int>(0)
    private static let magic = Array("CCR1".utf8)

    /// Uses `directory` (created when missing).
    init(directory: URL, maxBytes: Int = 64 << 20) {
        self.directory = directory
        self.maxBytes = maxBytes
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The entry for `key`, if one is stored.
    func entry(for key: String) -> Entry? {
        guard let data = try? Data(contentsOf: file(for: key)) else { return nil }
        return Self.decode([UInt8](data), key: key)
    }

    /// Stores `entry` for `key`.
    func store(_ entry: Entry, for key: String) {
        guard (try? AtomicFile.write(Data(Self.encode(entry, key: key)), to: file(for: key))) != nil else { return }
        if writes.add(1, ordering: .relaxed).newValue % 32 == 0 { trim() }
    }

    /// Forgets the entry for `key`.
    func remove(_ key: String) {
        try? FileManager.default.removeItem(at: file(for: key))
    }

    private func file(for key: String) -> URL {
        // Named by the one content hash; entries named by an earlier hash are only missed once and
        // trimmed with the oldest.
        directory.appendingPathComponent(ContentDigest.hex(of: Array(key.utf8)) + ".entry")
    }

    /// Removes the oldest entries while the directory holds more than ``maxBytes``.
    func trim() {
        let manager = FileManager.default
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard
            let files = try? manager.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
        else { return }
        var entries = files.filter { $0.pathExtension == "entry" }.map { url -> (URL, Int, Date) in
            let values = try? url.resourceValues(forKeys: Set(keys))
            return (url, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast)
        }
        var total = entries.reduce(0) { $0 + $1.1 }
        guard total > maxBytes else { return }
        entries.sort { $0.2 < $1.2 }
        for (url, size, _) in entries where total > maxBytes * 3 / 4 {
            try? manager.removeItem(at: url)
            total -= size
        }
    }

    // MARK: - File format: magic, then length-prefixed key, ETag, time, max-age, then the body.

    static func encode(_ entry: Entry, key: String) -> [UInt8] {
        var bytes = magic
        func field(_ data: some Collection<UInt8>) {
            var length = UInt32(data.count).littleEndian
            withUnsafeBytes(of: &length) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: data)
        }
        field(Array(key.utf8))
        field(Array((entry.etag ?? "").utf8))
        field(Array(String(entry.stored.timeIntervalSince1970).utf8))
        field(Array(String(entry.maxAge).utf8))
        bytes.append(contentsOf: entry.body)
        return bytes
    }

    static func decode(_ bytes: [UInt8], key: String) -> Entry? {
        guard bytes.starts(with: magic) else { return nil }
        var offset = magic.count
        func field() -> [UInt8]? {
            guard offset + 4 <= bytes.count else { return nil }
            let length =
                Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
                | Int(bytes[offset + 3]) << 24
            offset += 4
            guard length <= bytes.count - offset else { return nil }
            defer { offset += length }
            return Array(bytes[offset..<(offset + length)])
        }
        guard let storedKey = field(), storedKey == Array(key.utf8), let etag = field(), let time = field(),
            let maxAge = field(), let seconds = Double(String(decoding: time, as: UTF8.self)),
            let age = Double(String(decoding: maxAge, as: UTF8.self))
        else { return nil }
        let tag = String(decoding: etag, as: UTF8.self)
        return Entry(
            etag: tag.isEmpty ? nil : tag, body: Data(bytes[offset...]), stored: Date(timeIntervalSince1970: seconds),
            maxAge: age)
    }
}
