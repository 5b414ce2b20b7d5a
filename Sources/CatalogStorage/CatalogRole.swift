/// What a user may do with one catalog, granted per catalog by an administrator (`catalog user
/// grant`) or by the catalog's owners. Each role includes the ones before it.
///
/// Administrators need no role: they are owners of every catalog. Which action each role allows
/// is the server's access policy (`AccessPolicy`); stores only keep the grants.
///
/// ```swift
/// CatalogRole(rawValue: "editor")     // .editor
/// CatalogRole.owner > .editor         // true
/// ```
public enum CatalogRole: String, Sendable, Codable, Comparable, CaseIterable {
    /// Sees the catalog, even when it is for its members only.
    case viewer
    /// Also changes the catalog's records and images.
    case editor
    /// Also changes its definition, who its members are and who sees it.
    case owner

    /// Orders the roles by what they allow: `viewer < editor < owner`.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .editor: 1
        case .owner: 2
        }
    }

    /// The roles' names as a list for messages: "viewer, editor, owner".
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
