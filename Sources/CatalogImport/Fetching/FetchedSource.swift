import Foundation

/// A local file to read, as ``SourceFetcher`` found or downloaded it.
///
/// A downloaded file is temporary: it is deleted by ``discard()`` or, at the latest, when the
/// last reference to this object goes away. Keep the object alive while reading the file.
///
/// ```swift
/// let fetched = try SourceFetcher().fetchBlocking("https://example.org/feed.xml")
/// let reader = XMLRecordReader(fileURL: fetched.fileURL, sourceName: fetched.displayName)
/// try reader.forEachRecord { … }
/// fetched.discard()
/// ```
public final class FetchedSource: Sendable {
    /// The local file.
    public let fileURL: URL
    /// What was asked for (the path or URL as given): use it as a reader's `sourceName` so error
    /// locations name the URL rather than the temporary file.
    public let displayName: String
    /// Whether ``fileURL`` is a temporary download that this object deletes.
    public let isTemporary: Bool
    /// The file's size in bytes, when known.
    public let byteCount: Int64?
    /// A download's `ETag`, for the next conditional GET.
    public let etag: String?
    /// A download's `Last-Modified`, for the next conditional GET.
    public let lastModified: String?

    init(
        fileURL: URL, displayName: String, isTemporary: Bool, byteCount: Int64?, etag: String? = nil,
        lastModified: String? = nil
    ) {
        self.fileURL = fileURL
        self.displayName = displayName
        self.isTemporary = isTemporary
        self.byteCount = byteCount
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Deletes a temporary download now; does nothing for a local file. Safe to call repeatedly.
    public func discard() {
        guard isTemporary else { return }
        TemporaryFiles.remove(fileURL)
    }

    deinit { discard() }
}
