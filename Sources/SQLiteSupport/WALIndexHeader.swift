import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The first copy of a WAL database's wal-index header, read from its `-shm` file without a
/// transaction: a hint that tells whether anyone may have committed since the last look.
///
/// SQLite updates this header (its change counter, last frame, salts and checksums; the file
/// format's "WAL-index header", 48 bytes at offset 0) before a commit returns, so bytes equal to
/// those read before a check mean no commit has finished since, and bytes that differ (a commit,
/// a restarted log, a header caught half-written) mean ask SQLite. Asking SQLite itself
/// (`PRAGMA data_version`) takes and drops a read lock: two `fcntl` calls, a tenth of what a
/// cached answer costs the server.
///
/// Read with `pread`, never mapped: a `-shm` file truncated by a recovering process reads as
/// short (no hint), where a mapping would fault.
public final class WALIndexHeader: Sendable {
    /// The header's bytes, as six words.
    public struct Bytes: Equatable, Sendable {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)

        public static func == (lhs: Bytes, rhs: Bytes) -> Bool {
            lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
                && lhs.words.3 == rhs.words.3 && lhs.words.4 == rhs.words.4 && lhs.words.5 == rhs.words.5
        }
    }

    private let descriptor: Int32

    /// The header of the database at `path`, nil when it has no `-shm` file to read (not in WAL
    /// mode, or not opened yet).
    public init?(databasePath path: String) {
        let descriptor = open(path + "-shm", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The header as it is now; nil when it cannot be read whole (a file being recreated).
    public func read() -> Bytes? {
        var bytes = Bytes()
        let count = withUnsafeMutableBytes(of: &bytes.words) { buffer in
            pread(descriptor, buffer.baseAddress, buffer.count, 0)
        }
        return count == MemoryLayout<Bytes>.size ? bytes : nil
    }
}
