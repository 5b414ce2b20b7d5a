import CatalogModel

/// The three original apps as built-in catalogs, with our own data: the German music-software
/// overview (`sequencers`, XML), the English product catalog (`products`, JSON) and the Hungarian
/// cookbook (`cookbook`, JSON). Their images are in ``DemoImages``.
///
/// ```swift
/// for demo in DemoCatalogs.all { print(demo.definition.id, demo.format) }
/// let cookbook = DemoCatalogs.named("cookbook")
/// ```
public enum DemoCatalogs {
    /// Every demo catalog, in a fixed order: sequencers, products, cookbook.
    public static let all: [DemoCatalog] = [sequencers, products, cookbook]

    /// The demo catalog whose definition has the id `id`, or `nil`.
    ///
    /// - Parameter id: `sequencers`, `products` or `cookbook`.
    /// - Returns: The catalog, or `nil` for any other id.
    public static func named(_ id: String) -> DemoCatalog? {
        all.first { $0.definition.id == id }
    }
}
