/// A category as listed with its count: `{"id","name","image","count"}`.
public struct CategoryCount: Codable, Sendable, Equatable {
    /// The category's numeric id.
    public var id: Int
    /// Its label.
    public var name: String
    /// Image URL or path.
    public var image: String?
    /// Records carrying it.
    public var count: Int

    /// Creates a category count.
    public init(id: Int, name: String, image: String?, count: Int) {
        self.id = id
        self.name = name
        self.image = image
        self.count = count
    }
}

/// What an import did.
public struct ImportSummary: Codable, Sendable, Equatable {
    /// Records read from the source.
    public var read: Int
    /// Records in the catalog afterwards.
    public var total: Int
    /// Records that were new.
    public var added: Int
    /// Records replaced by a record with the same id.
    public var updated: Int
    /// Records removed (only with `replace`).
    public var removed: Int

    /// Creates a summary.
    public init(read: Int, total: Int, added: Int, updated: Int, removed: Int) {
        self.read = read
        self.total = total
        self.added = added
        self.updated = updated
        self.removed = removed
    }
}
