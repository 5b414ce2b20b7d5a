import Foundation
import Synchronization

/// Recently made thumbnails, kept in memory up to a byte budget (least recently used go first),
/// so a list scrolling past the same rows does not scale the same images again. Thumbnails are
/// made on one thread of their own (the `thumbnails` lane, ``ImageRoutes/isThumbnailToMake(_:cache:)``),
/// so identical requests that arrive together wait in line and all but the first find the
/// thumbnail made: each is scaled once.
final class ThumbnailCache: Sendable {
    private struct Entry {
        var image: ImageStore.Image
        /// When the source image was modified: a newer source makes the entry stale.
        var sourceModified: Date
    }

    private struct Entries {
        var images: [String: Entry] = [:]
        /// Keys, least recently used first.
        var order: [String] = []
        var bytes = 0
    }

    private let entries = Mutex(Entries())
    let budget: Int
    /// Thumbnails made (not found in the cache), for tests.
    let made = Atomic<Int>(0)
    /// Thumbnails answered from the cache, for the metrics.
    let hits = Atomic<Int>(0)

    init(budget: Int = 8 << 20) {
        self.budget = budget
    }

    private static func key(path: [String], size: Int) -> String {
        "\(size)|" + path.joined(separator: "/")
    }

    /// Forgets the thumbnails, at every size, of the images at `paths` (each one's segments
    /// joined by `/`, as ``ImageRoutes`` reads them: `demo/recipes/r01.svg`).
    func remove(paths: Set<String>) {
        guard !paths.isEmpty else { return }
        entries.withLock { entries in
            for key in entries.images.keys {
                guard let bar = key.firstIndex(of: "|"), paths.contains(String(key[key.index(after: bar)...])) else {
                    continue
                }
                entries.bytes -= entries.images.removeValue(forKey: key)?.image.bytes.count ?? 0
                entries.order.removeAll { $0 == key }
            }
        }
    }

    /// The thumbnails kept, for tests.
    var count: Int { entries.withLock { $0.images.count } }

    /// The bytes of the thumbnails kept, for the metrics.
    var bytes: Int { entries.withLock { $0.bytes } }

    /// Whether a thumbnail of the image at `path` at `size` is kept (it may still be stale: the
    /// lane that makes thumbnails is skipped only for what is probably a quick answer).
    func contains(path: [String], size: Int) -> Bool {
        entries.withLock { $0.images[Self.key(path: path, size: size)] != nil }
    }

    /// The thumbnail of `image` at `size`, made now if it is not cached.
    ///
    /// - Throws: ``Thumbnailer/Failure``.
    func thumbnail(of image: ImageStore.Image, path: [String], size: Int) throws(Thumbnailer.Failure)
        -> ImageStore.Image
    {
        let key = Self.key(path: path, size: size)
        if let cached = entries.withLock({ entries -> ImageStore.Image? in
            guard let entry = entries.images[key], entry.sourceModified == image.modified else { return nil }
            if let index = entries.order.firstIndex(of: key) { entries.order.remove(at: index) }
            entries.order.append(key)
            return entry.image
        }) {
            hits.add(1, ordering: .relaxed)
            return cached
        }
        let made = try Thumbnailer.thumbnail(of: image.bytes, contentType: image.contentType, size: size)
        self.made.add(1, ordering: .relaxed)
        let thumbnail = ImageStore.Image(bytes: made.bytes, contentType: made.contentType, modified: image.modified)
        entries.withLock { entries in
            guard thumbnail.bytes.count <= budget / 4 else { return }
            if let old = entries.images.removeValue(forKey: key) {
                entries.bytes -= old.image.bytes.count
                entries.order.removeAll { $0 == key }
            }
            entries.images[key] = Entry(image: thumbnail, sourceModified: image.modified)
            entries.order.append(key)
            entries.bytes += thumbnail.bytes.count
            while entries.bytes > budget, let oldest = entries.order.first {
                entries.order.removeFirst()
                entries.bytes -= entries.images.removeValue(forKey: oldest)?.image.bytes.count ?? 0
            }
        }
        return thumbnail
    }
}
