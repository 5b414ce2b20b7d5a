import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files replaced in one step: written beside their destination under a temporary name, then
/// renamed over it (`rename(2)`), so a reader sees the old file or the new one, never a mix.
enum AtomicFile {
    /// Writes `data` to `url` in one step.
    static func write(_ data: Data, to url: URL) throws {
        let temporary = temporaryURL(beside: url)
        do {
            try data.write(to: temporary)
            try replace(url, with: temporary)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Renames `source` over `destination`.
    static func replace(_ destination: URL, with source: URL) throws {
        guard rename(source.path, destination.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
    }

    /// A hidden name in `url`'s directory.
    static func temporaryURL(beside url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    }
}
