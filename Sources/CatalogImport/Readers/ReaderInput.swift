import CatalogModel
import Foundation

/// What a reader was created with: a file to open on each pass, or bytes in memory.
enum ReaderInput {
    /// A file, opened when reading starts; `name` is used in error locations.
    case file(URL, name: String)
    /// Bytes in memory; `name` is used in error locations.
    case data(Data, name: String)

    /// The name used in error locations.
    var name: String {
        switch self {
        case .file(_, let name), .data(_, let name): return name
        }
    }

    /// Opens the input for one pass.
    ///
    /// - Throws: `.io` when the file cannot be opened.
    func open() throws(ImportError) -> ByteSource {
        switch self {
        case .file(let url, let name): return try ByteSource(fileURL: url, name: name)
        case .data(let data, let name): return ByteSource(data: data, name: name)
        }
    }
}
