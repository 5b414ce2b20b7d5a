#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation

/// The file a download's decoded body goes into: created new and private (mode 0600), written
/// with plain `write(2)`, closed by ``close()`` or at the latest in `deinit`.
final class DownloadFile {
    /// A failed system call's `errno`.
    struct Failure: Error {
        var number: Int32
    }

    private var descriptor: Int32
    /// Bytes written so far.
    private(set) var bytes: Int64 = 0

    /// Creates `url`, which must not exist.
    ///
    /// - Throws: the `errno` of `open(2)`.
    init(creating url: URL) throws(Failure) {
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(number: errno) }
    }

    deinit { _ = try? close() }

    /// Writes all of `data`.
    ///
    /// - Throws: the `errno` of `write(2)` (a full disk is `ENOSPC`).
    func write(_ data: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < data.count {
            let written = Glibc.write(descriptor, data.baseAddress! + offset, data.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(number: errno)
            }
            offset += written
        }
        bytes += Int64(data.count)
    }

    /// Closes the file; safe to call repeatedly.
    ///
    /// - Throws: the `errno` of `close(2)`.
    func close() throws(Failure) {
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw Failure(number: errno) }
    }
}
