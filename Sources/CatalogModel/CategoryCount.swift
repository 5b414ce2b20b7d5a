/// A category as listed with its count: `{"id","name","image","count"}`.
public struct CategoryCount: Codable, Sendable, Hashable, Identifiable {
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
public struct ImportSummary: Codable, Sendable, Hashable {
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
    /// What the user should know about how the source was read, one sentence each:
    /// `title: 851 records had several "comment" values; the first untranslated one is the title,
    /// all are kept in "comment"`.
    public var notes: [String]
    /// True when the source was the one imported last, byte for byte and read the same way, so
    /// nothing was read or written. Encoded only when true.
    public var unchanged: Bool

    /// Creates a summary.
    public init(
        read: Int, total: Int, added: Int, updated: Int, removed: Int, unchanged: Bool = false, notes: [String] = []
    ) {
        self.read = read
        self.total = total
        self.added = added
        self.updated = updated
        self.removed = removed
        self.unchanged = unchanged
        self.notes = notes
    }

    enum CodingKeys: String, CodingKey {
        case read, total, added, updated, removed, notes, unchanged
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(read, forKey: .read)
        try c.encode(total, forKey: .total)
        try c.encode(added, forKey: .added)
        try c.encode(updated, forKey: .updated)
        try c.encode(removed, forKey: .removed)
        try c.encode(notes, forKey: .notes)
        if unchanged { try c.encode(true, forKey: .unchanged) }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        read = try c.decode(Int.self, forKey: .read)
        total = try c.decode(Int.self, forKey: .total)
        added = try c.decode(Int.self, forKey: .added)
        updated = try c.decode(Int.self, forKey: .updated)
        removed = try c.decode(Int.self, forKey: .removed)
        notes = try c.decodeIfPresent([String].self, forKey: .notes) ?? []
        unchanged = try c.decodeIfPresent(Bool.self, forKey: .unchanged) ?? false
    }
}
