#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CatalogModel
import Foundation

/// Where a reader's bytes come from: an open file or an in-memory `Data`.
///
/// Owns the file descriptor and closes it in `deinit`, so no error path can leak it. Reads
/// go straight into the caller's buffer (no intermediate `Data` per chunk).
final class ByteSource {
    private let descriptor: Int32
    private let data: Data?
    private var dataOffset = 0
    /// The path or name used in error messages.
    let name: String

    /// Opens `fileURL` for reading.
    ///
    /// - Throws: `.io` naming the path when the file is missing, is a directory or cannot be read.
    init(fileURL: URL, name: String) throws(ImportError) {
        self.name = name
        self.data = nil
        let path = fileURL.path
        let fd = path.withCString { Self.openReadOnly($0) }
        guard fd >= 0 else {
            throw ImportError(
                .io, "cannot open \(path): \(Self.describe(errno: errno))", at: SourceLocation(source: name))
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            _ = close(fd)
            throw ImportError(.io, "cannot read \(path): it is a directory", at: SourceLocation(source: name))
        }
        self.descriptor = fd
    }

    /// Serves `data` in chunks, like a file.
    init(data: Data, name: String) {
        self.name = name
        self.data = data
        self.descriptor = -1
    }

    deinit {
        if descriptor >= 0 { _ = close(descriptor) }
    }

    /// Reads up to `count` bytes into `buffer`.
    ///
    /// - Returns: the number of bytes read; 0 at the end of the input.
    /// - Throws: `.io` when the read fails.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(ImportError) -> Int {
        if let data {
            let n = min(count, data.count - dataOffset)
            guard n > 0 else { return 0 }
            data.withUnsafeBytes { raw in
                buffer.copyMemory(from: raw.baseAddress! + dataOffset, byteCount: n)
            }
            dataOffset += n
            return n
        }
        while true {
            #if canImport(Darwin)
                let n = Darwin.read(descriptor, buffer, count)
            #elseif canImport(Musl)
                let n = Musl.read(descriptor, buffer, count)
            #else
                let n = Glibc.read(descriptor, buffer, count)
            #endif
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw ImportError(
                .io, "cannot read \(name): \(Self.describe(errno: errno))", at: SourceLocation(source: name))
        }
    }

    private static func openReadOnly(_ path: UnsafePointer<CChar>) -> Int32 {
        #if canImport(Darwin)
            return Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #elseif canImport(Musl)
            return Musl.open(path, O_RDONLY | O_CLOEXEC)
        #else
            return Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #endif
    }

    /// A lower-case explanation of an `errno` value ("no such file or directory").
    static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "it is a directory"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
