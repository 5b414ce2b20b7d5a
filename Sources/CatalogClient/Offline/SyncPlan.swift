import CatalogCore

/// How pages of the change feed become edits of a local copy of the catalog: in order, split into
/// groups that change each record at most once (the editor takes a record once per batch), each
/// group ending at a known change number so the copy's numbering can be checked against the
/// server's after every group.
///
/// A feed that leaves changes out (an API key's with a record filter says so: its pages are
/// ``CatalogChangePage/filtered``) has gaps between its numbers; the copy then takes the
/// server's numbers for its edits, and at the end of the feed the server's number.
struct SyncPlan: Sendable {
    /// One batch of edits, the change number each takes, and the change number the copy must
    /// be at after it.
    struct Group: Sendable {
        var edits: [RecordEdit]
        var numbers: [Int]
        var change: Int

        /// How the editor numbers the group's changes: the server's numbers.
        var numbering: ChangeNumbering { ChangeNumbering(numbers: numbers, through: change) }
    }

    private(set) var groups: [Group] = []
    /// The change number after the last group.
    private(set) var change: Int
    /// How many changes the groups hold.
    private(set) var count = 0

    /// A plan that starts at `change`.
    init(after change: Int) {
        self.change = change
    }

    /// Adds `changes` (a page of the feed, oldest first). False when they cannot be applied to
    /// the copy, which must be downloaded again instead: a change of the whole catalog or of its
    /// definition, a number that does not follow the one before, an upsert without its record or
    /// the server's key for it.
    /// With `gaps`, a number may skip the ones before it (changes the feed leaves out).
    mutating func add(_ changes: [CatalogChange], collation: inout FeedCollation, gaps: Bool = false) -> Bool {
        var ids: Set<String> = []
        if let last = groups.last { ids = Set(last.edits.map(\.id)) }
        for change in changes {
            let follows = gaps ? change.number > self.change : change.number == self.change + 1
            guard follows, let id = change.id else { return false }
            let edit: RecordEdit
            switch change.kind {
            case .upsert:
                guard let record = change.record, record.id == id, collation.learn(record, cursor: change.cursor) else {
                    return false
                }
                edit = RecordEdit(.upsert(record))
            case .delete:
                edit = RecordEdit(.delete(id: id))
            case .definition, .reload:
                return false
            }
            if groups.isEmpty || !ids.insert(id).inserted {
                groups.append(Group(edits: [], numbers: [], change: self.change))
                ids = [id]
            }
            groups[groups.count - 1].edits.append(edit)
            groups[groups.count - 1].numbers.append(change.number)
            groups[groups.count - 1].change = change.number
            self.change = change.number
            count += 1
        }
        return true
    }

    /// Moves the plan on to `change`, the number a feed that leaves changes out has reached
    /// after its last change for this copy: the copy is at the server's number afterwards.
    mutating func advance(to change: Int) {
        guard change > self.change else { return }
        if groups.isEmpty { groups.append(Group(edits: [], numbers: [], change: self.change)) }
        groups[groups.count - 1].change = change
        self.change = change
    }

    /// Takes the groups planned so far (they are applied as pages arrive).
    mutating func take() -> [Group] {
        defer { groups = [] }
        return groups
    }
}
