/// One key and what it does, for the bottom line and the help screen.
struct KeyHint: Equatable, Sendable {
    /// The key as the user sees it (`Esc`, `↑↓`, `/`).
    var keys: String
    /// What it does, in the catalog's language where the app has the word.
    var label: String
    /// Which hints stay on a narrow line: 0 always (as long as it fits), higher ones go first.
    var priority: Int

    init(_ keys: String, _ label: String, priority: Int) {
        self.keys = keys
        self.label = label
        self.priority = priority
    }

    /// Columns it takes on the bottom line, with the space before it.
    var columns: Int {
        (keys.isEmpty ? 0 : 1 + TextWidth.of(keys)) + (label.isEmpty ? 0 : 1 + TextWidth.of(label)) + 1
    }
}
