/// An image kept in the database for one record (`PUT …/items/{item}/image`): the bytes as
/// re-encoded on arrival, so every server on the database serves the same file. A record has at
/// most one; its `image` field names it by ``StoredImageLocation``.
public struct StoredImage: Sendable, Equatable {
    /// The catalog's id.
    public var catalog: String
    /// The record's id.
    public var item: String
    /// The image file.
    public var bytes: [UInt8]
    /// `image/jpeg`, `image/png` or `image/webp`.
    public var contentType: String
    /// Its size in pixels.
    public var width: Int
    public var height: Int
    /// The content hash of ``bytes`` (lowercase hex): names this version of the image in its URL.
    public var hash: String
    /// When it was stored, ISO 8601 in UTC.
    public var storedAt: String

    /// Creates a description.
    public init(
        catalog: String, item: String, bytes: [UInt8], contentType: String, width: Int, height: Int, hash: String,
        storedAt: String
    ) {
        self.catalog = catalog
        self.item = item
        self.bytes = bytes
        self.contentType = contentType
        self.width = width
        self.height = height
        self.hash = hash
        self.storedAt = storedAt
    }
}

/// An image ready to be stored: already recognised, checked and re-encoded (`CatalogImages.ImageReader` makes
/// it), so its bytes carry no metadata of the upload.
public struct PreparedImage: Sendable, Equatable {
    /// The re-encoded file.
    public var bytes: [UInt8]
    /// `image/jpeg`, `image/png` or `image/webp`.
    public var contentType: String
    /// Its size in pixels.
    public var width: Int
    public var height: Int

    /// Creates a description.
    public init(bytes: [UInt8], contentType: String, width: Int, height: Int) {
        self.bytes = bytes
        self.contentType = contentType
        self.width = width
        self.height = height
    }
}
