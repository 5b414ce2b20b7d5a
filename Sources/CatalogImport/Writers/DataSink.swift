import CatalogModel
import Foundation

/// A ``ByteSink`` that collects everything in memory, for tests and small outputs.
public struct DataSink: ByteSink {
    /// Everything written so far.
    public private(set) var data = Data()

    /// Creates an empty sink.
    public init() {}

    /// Appends `bytes` to ``data``.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ImportError) {
        data.append(contentsOf: bytes)
    }

    /// Does nothing: the bytes are already in ``data``.
    public mutating func flush() throws(ImportError) {}
}
