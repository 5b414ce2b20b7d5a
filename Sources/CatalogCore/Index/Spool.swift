import CatalogStorage
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An anonymous temporary file: appended to while records arrive, read back by offset in index
/// order. The file is unlinked as soon as it is created, so no exit path (an error, a signal,
/// a crash) can leave it behind.
final class Spool {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var flushed: UInt64 = 0
    private static let bufferSize = 1 << 20

    /// Creates the file in `directory` (the system's temporary directory when nil).
    init(directory: String? = nil) throws {
        descriptor = try IndexFiles.unlinkedFile(in: directory ?? FileManager.default.temporaryDirectory.path)
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        close(descriptor)
    }

    /// The offset the next append lands at.
    var size: UInt64 { flushed + UInt64(buffer.count) }

    /// Appends bytes; returns their offset.
    @discardableResult
    func append(_ bytes: some Collection<UInt8>) throws -> UInt64 {
        let offset = size
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
        return offset
    }

    /// Writes what is buffered.
    func flush() throws {
        var written = 0
        try buffer.withUnsafeBytes { bytes in
            while written < bytes.count {
                let result = pwrite(
                    descriptor, bytes.baseAddress! + written, bytes.count - written, off_t(flushed) + off_t(written))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw StorageError(.engine, "cannot write a temporary file: \(String(cString: strerror(errno)))")
                }
                written += result
            }
        }
        flushed += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reads `count` bytes at `offset`, appending them to `target`.
    func read(at offset: UInt64, count: Int, appendingTo target: inout [UInt8]) throws {
        guard count > 0 else { return }
        if offset >= flushed {
            let start = Int(offset - flushed)
            target.append(contentsOf: buffer[start..<(start + count)])
            return
        }
        let first = target.count
        target.append(contentsOf: repeatElement(0, count: count))
        try target.withUnsafeMutableBytes { bytes in
            var done = 0
            while done < count {
                let result = pread(
                    descriptor, bytes.baseAddress! + first + done, count - done, off_t(offset) + off_t(done))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw StorageError(.engine, "cannot read a temporary file: \(String(cString: strerror(errno)))")
                }
                if result == 0 { throw StorageError(.engine, "a temporary file ended early") }
                done += result
            }
        }
    }
}
