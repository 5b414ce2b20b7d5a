import CatalogModel
import Foundation

/// A ``ByteSink`` that writes to a `FileHandle` (a file, standard output, a pipe) through a
/// buffer, so writers can emit small pieces cheaply.
///
/// ```swift
/// FileManager.default.createFile(atPath: path, contents: nil)
/// var sink = FileHandleSink(try FileHandle(forWritingTo: URL(fileURLWithPath: path)), name: path)
/// var writer = CSVRecordWriter(columns: ["id", "title"])
/// try writer.write(from: reader, to: &sink)       // flushes at the end
/// ```
///
/// Bytes reach the handle when the buffer fills and on ``flush()`` (which the writers call after
/// the last record). The sink does not close the handle.
public struct FileHandleSink: ByteSink {
    /// The handle written to.
    public let handle: FileHandle
    /// The name used in error messages (a path, "standard output").
    public let name: String
    private let capacity: Int
    private var buffer: [UInt8] = []

    /// Creates a sink for `handle`.
    ///
    /// - Parameters:
    ///   - handle: an open handle; the sink never closes it.
    ///   - name: the name used in error messages.
    ///   - bufferSize: bytes collected before each write to the handle.
    public init(_ handle: FileHandle, name: String = "output", bufferSize: Int = 64 * 1024) {
        self.handle = handle
        self.name = name
        self.capacity = max(1, bufferSize)
        buffer.reserveCapacity(self.capacity)
    }

    /// Buffers `bytes`, writing the buffer out when it is full.
    ///
    /// - Throws: `.io` when writing to the handle fails.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ImportError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try flush() }
    }

    /// Writes the buffered bytes to the handle.
    ///
    /// - Throws: `.io` when writing to the handle fails.
    public mutating func flush() throws(ImportError) {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw ImportError(
                .io, "cannot write to \(name): \(error.localizedDescription)", at: SourceLocation(source: name))
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
