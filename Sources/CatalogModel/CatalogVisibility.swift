/// Who may see a catalog: anyone, any signed-in account, or only its members (and
/// administrators). To everyone else the catalog does not exist.
///
/// Stored with the catalog as a member of its definition (``CatalogDefinition/visibility``): the
/// definition is what both engines store, what an export writes beside the records and what
/// `catalog copy` and backups carry, so a private catalog stays private through all of them.
///
/// ```swift
/// let visibility = CatalogVisibility(rawValue: "signed-in")  // .signedIn
/// ```
public enum CatalogVisibility: String, Codable, Sendable, CaseIterable, Hashable, CustomStringConvertible {
    /// Anyone, signed in or not (the default, and what every catalog was before visibility).
    case `public`
    /// Any signed-in account.
    case signedIn = "signed-in"
    /// Users with a role in the catalog (viewer, editor, owner), and administrators.
    case members

    /// `public`, `signed-in` or `members`.
    public var description: String { rawValue }

    /// The spellings, for messages: `public, signed-in, members`.
    public static let spellings = allCases.map(\.rawValue).joined(separator: ", ")
}
