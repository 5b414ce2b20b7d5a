import CatalogModel

/// A destination the record writers stream bytes into: a file (``FileHandleSink``), memory
/// (``DataSink``), or anything else that conforms.
///
/// ```swift
/// var sink = DataSink()
/// var writer = JSONRecordWriter()
/// try writer.write(records: records, to: &sink)
/// print(String(decoding: sink.data, as: UTF8.self))
/// ```
public protocol ByteSink {
    /// Appends `bytes`.
    ///
    /// - Throws: `.io` when the destination cannot take them.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(ImportError)

    /// Pushes any buffered bytes to the destination. Writers call it at the end of a document.
    ///
    /// - Throws: `.io` when the destination cannot take them.
    mutating func flush() throws(ImportError)
}

extension ByteSink {
    /// Appends `bytes`.
    ///
    /// - Throws: `.io` when the destination cannot take them.
    public mutating func write(_ bytes: [UInt8]) throws(ImportError) {
        let result: Result<Void, ImportError> = bytes.withUnsafeBytes { raw in
            Result { () throws(ImportError) in try write(raw) }
        }
        try result.get()
    }
}
