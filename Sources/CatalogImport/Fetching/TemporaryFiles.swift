#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import Synchronization

/// The temporary files of downloads and uploads: named so a later run can tell whose they are,
/// registered while in use so every exit path removes them, and swept at start when a crashed
/// run left them behind.
///
/// A file is `catalog-KIND-PID-UUID[.EXT]` in the temporary directory (`catalog-download-…`,
/// `catalog-upload-…`). ``removeStale(in:now:)`` deletes those whose process is gone, and files
/// of the older naming (`catalog-KIND-UUID`, without a process id) older than an hour.
/// ``removeRegistered()`` deletes every file this process still has registered: the CLI calls it
/// when SIGINT or SIGTERM stops an import, the server after it stopped.
///
/// ```swift
/// let url = TemporaryFiles.create(kind: "download", extension: "xml")
/// defer { TemporaryFiles.remove(url) }
/// ```
public enum TemporaryFiles {
    /// The kinds of temporary files Catalog makes.
    public static let kinds = ["download", "upload"]

    private static let registered = Mutex<Set<String>>([])

    /// A fresh registered path for a file of `kind` (`download`, `upload`), keeping `ext` so
    /// format detection by extension still works. The file itself is not created.
    public static func create(kind: String, extension ext: String = "") -> URL {
        let suffix =
            !ext.isEmpty && ext.count <= 10 && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            ? "." + ext : ""
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "catalog-\(kind)-\(getpid())-\(UUID().uuidString)\(suffix)")
        registered.withLock { _ = $0.insert(url.path) }
        return url
    }

    /// Deletes the file and forgets it. Safe to call repeatedly.
    public static func remove(_ url: URL) {
        _ = unlink(url.path)
        registered.withLock { _ = $0.remove(url.path) }
    }

    /// Deletes every file this process still has registered.
    public static func removeRegistered() {
        let paths = registered.withLock { set in
            defer { set.removeAll() }
            return set
        }
        for path in paths { _ = unlink(path) }
    }

    /// The registered paths (for tests).
    public static var registeredPaths: Set<String> {
        registered.withLock { $0 }
    }

    /// Deletes temporary files that crashed runs left behind in `directory`.
    ///
    /// - Returns: the names deleted.
    @discardableResult
    public static func removeStale(in directory: URL = FileManager.default.temporaryDirectory, now: Date = Date())
        -> [String]
    {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let kind = kinds.first(where: { name.hasPrefix("catalog-\($0)-") }) else { continue }
            let rest = name.dropFirst("catalog-\(kind)-".count)
            let path = directory.appendingPathComponent(name).path
            let stale: Bool
            if UUID(uuidString: String(rest.prefix(36))) == nil, let dash = rest.firstIndex(of: "-"),
                let pid = Int32(rest[..<dash])
            {
                stale = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
            } else {
                let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
                stale = modified.map { now.timeIntervalSince($0) > 3600 } ?? false
            }
            if stale, unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }
}
