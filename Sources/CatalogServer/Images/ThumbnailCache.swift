import Foundation

/// Recently made thumbnails, kept in memory up to a byte budget (least recently used go first),
/// so a list scrolling past the same rows does not scale the same images again.
final class ThumbnailCache: @unchecked Sendable {
    // @unchecked: `entries`, `order` and `bytes` are only touched while `lock` is held.
    private let lock = NSLock()
    private var entries: [String: ImageStore.Image] = [:]
    private var order: [String] = []
    private var bytes = 0
    let budget: Int

    init(budget: Int = 8 << 20) {
        self.budget = budget
    }

    /// The thumbnail of `image` at `size`, made now if it is not cached.
    func thumbnail(of image: ImageStore.Image, path: [String], size: Int) -> ImageStore.Image? {
        let key = "\(size)|\(Int(image.modified.timeIntervalSince1970))|" + path.joined(separator: "/")
        if let cached = lock.withLock({ () -> ImageStore.Image? in
            guard let entry = entries[key] else { return nil }
            if let index = order.firstIndex(of: key) { order.remove(at: index) }
            order.append(key)
            return entry
        }) {
            return cached
        }
        guard let made = Thumbnailer.thumbnail(of: image.bytes, contentType: image.contentType, size: size) else {
            return nil
        }
        let thumbnail = ImageStore.Image(bytes: made.bytes, contentType: made.contentType, modified: image.modified)
        lock.withLock {
            guard entries[key] == nil, thumbnail.bytes.count <= budget / 4 else { return }
            entries[key] = thumbnail
            order.append(key)
            bytes += thumbnail.bytes.count
            while bytes > budget, let oldest = order.first {
                order.removeFirst()
                bytes -= entries.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }
        return thumbnail
    }
}
