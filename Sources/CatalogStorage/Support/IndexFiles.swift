#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a database keeps the large parts of its loaded search indexes (a catalog's lexicon,
/// its columns of prices and order): each in a file of its own, mapped into memory.
///
/// A mapped file's pages are the kernel's page cache, not the process's own memory: they count
/// as file pages in its resident size, and under memory pressure the kernel drops them and reads
/// them back on use, where a heap copy could only be swapped. The files are unlinked the moment
/// they are made (nothing is left behind by a crash) and go when their index is dropped.
///
/// When the directory cannot take a file (read-only, full, gone), the bytes stay on the heap,
/// as they would without a directory: a search never fails for want of a file.
///
/// ```swift
/// let files = IndexFiles(directory: "/var/lib/catalog")
/// let lexicon = try files.load { write in try reader.readBlob(named: "lexicon", into: write) }
/// ```
public struct IndexFiles: Sendable {
    /// The directory the files are made in.
    public let directory: String

    /// Files in `directory`, which should be on a disk (not a memory file system such as a
    /// `tmpfs` `/tmp`, whose pages are memory again).
    public init(directory: String) {
        self.directory = directory
    }

    /// Bytes written piece by piece by `fill` (which returns false when there are none), in a
    /// mapped file when one can be made, else on the heap. `fill` may be called a second time,
    /// for the heap, when writing the file failed.
    ///
    /// - Throws: what `fill` throws.
    public func load(_ fill: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool) throws -> IndexBytes? {
        if let descriptor = try? Self.unlinkedFile(in: directory) {
            defer { close(descriptor) }
            var written = 0
            var failed = false
            let found = try fill { piece in
                guard !failed else { return }
                failed = !Self.writeAll(piece, to: descriptor)
                written += piece.count
            }
            guard found else { return nil }
            if !failed, written > 0, let mapped = mmap(nil, written, PROT_READ, MAP_SHARED, descriptor, 0),
                mapped != MAP_FAILED
            {
                return IndexBytes(mappedAt: UnsafeRawPointer(mapped), count: written)
            }
        }
        return try Self.heap(fill)
    }

    /// The bytes `fill` writes, on the heap.
    public static func heap(_ fill: (_ write: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool) throws
        -> IndexBytes?
    {
        var bytes: [UInt8] = []
        guard try fill({ bytes.append(contentsOf: $0) }) else { return nil }
        return IndexBytes(copying: bytes)
    }

    /// A new file in `directory`, open for reading and writing, already unlinked: it goes when
    /// its last descriptor and mapping do, whatever way the process ends.
    ///
    /// - Throws: ``StorageError`` `.engine`, naming the directory and the system's reason.
    public static func unlinkedFile(in directory: String) throws(StorageError) -> Int32 {
        #if os(Linux)
            // O_TMPFILE (a macro Swift does not import): a file that never has a name. Not every
            // file system has it.
            let anonymous = open(directory, __O_TMPFILE | O_DIRECTORY | O_RDWR | O_CLOEXEC, 0o600)
            if anonymous >= 0 { return anonymous }
        #endif
        var template = Array((directory + "/.catalog-index-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw StorageError(
                .engine, "cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }

    /// Writes all of `bytes` at the end of the file; false when the system refused (disk full).
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var done = 0
        while done < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            done += result
        }
        return true
    }
}
