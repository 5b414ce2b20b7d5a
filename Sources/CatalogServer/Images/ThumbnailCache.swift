import Foundation
import Synchronization

/// Recently made thumbnails, kept in memory up to a byte budget (least recently used go first),
/// so a list scrolling past the same rows does not scale the same images again.
final class ThumbnailCache: Sendable {
    private struct Entries {
        var images: [String: ImageStore.Image] = [:]
        /// Keys, least recently used first.
        var order: [String] = []
        var bytes = 0
    }

    private let entries = Mutex(Entries())
    let budget: Int

    init(budget: Int = 8 << 20) {
        self.budget = budget
    }

    /// The thumbnail of `image` at `size`, made now if it is not cached.
    func thumbnail(of image: ImageStore.Image, path: [String], size: Int) -> ImageStore.Image? {
        let key = "\(size)|\(Int(image.modified.timeIntervalSince1970))|" + path.joined(separator: "/")
        if let cached = entries.withLock({ entries -> ImageStore.Image? in
            guard let entry = entries.images[key] else { return nil }
            if let index = entries.order.firstIndex(of: key) { entries.order.remove(at: index) }
            entries.order.append(key)
            return entry
        }) {
            return cached
        }
        guard let made = Thumbnailer.thumbnail(of: image.bytes, contentType: image.contentType, size: size) else {
            return nil
        }
        let thumbnail = ImageStore.Image(bytes: made.bytes, contentType: made.contentType, modified: image.modified)
        entries.withLock { entries in
            guard entries.images[key] == nil, thumbnail.bytes.count <= budget / 4 else { return }
            entries.images[key] = thumbnail
            entries.order.append(key)
            entries.bytes += thumbnail.bytes.count
            while entries.bytes > budget, let oldest = entries.order.first {
                entries.order.removeFirst()
                entries.bytes -= entries.images.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }
        return thumbnail
    }
}
