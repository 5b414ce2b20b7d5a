import CatalogHTTP
import CatalogStorage

/// What a request with an API key needs, route by route: the one table ``APIKeyGate`` asks.
///
/// Every route is in it or refuses keys: a route added without an entry is closed to keys (and
/// its test, which walks every route of the router, fails until it is decided here).
enum APIKeyRoutes {
    /// What a route asks of an API key.
    enum Requirement: Equatable, Sendable {
        /// The route does not read credentials (public documents, probes): a key changes nothing.
        case open
        /// The key needs `action`; with `catalogParameter`, the catalog that route parameter names
        /// must be one of the key's (else the catalog does not exist for it); without one, an
        /// `admin` action needs a key for every catalog. `filtered` tells whether the answer
        /// honours a key's record filter; a key with a filter is refused where it does not.
        case key(KeyAction, catalogParameter: String?, filtered: Bool)
        /// Keys may not be used here, for the reason given.
        case refused(String)
    }

    private static let catalog = "/api/v1/catalogs/{id}"

    /// The table, by method and route pattern (HEAD as GET).
    static let table: [String: Requirement] = {
        var table: [String: Requirement] = [:]
        func add(_ method: HTTPMethod, _ pattern: String, _ requirement: Requirement) {
            table[key(method, pattern)] = requirement
        }
        func read(_ pattern: String, filtered: Bool = true) {
            add(.get, pattern, .key(.read, catalogParameter: "id", filtered: filtered))
        }
        // Every answer read through the key's record filter (FilteredCatalogReader, ChangePage).
        for pattern in [
            "", "/sections", "/outline", "/categories/{category}/outline", "/items", "/categories/{category}/items",
            "/categories", "/featured", "/changes", "/items/{item}", "/items/{item}/history",
            // A filtered key's snapshot is a file of its records only (SnapshotCache).
            "/snapshot",
        ] {
            read(catalog + pattern)
        }
        add(.get, "/api/v1/catalogs", .key(.read, catalogParameter: nil, filtered: true))
        add(.get, catalog + "/search", .key(.search, catalogParameter: "id", filtered: true))
        add(.get, catalog + "/facets/{field}", .key(.search, catalogParameter: "id", filtered: true))
        for (method, pattern) in [
            (HTTPMethod.post, "/items"), (.put, "/items/{item}"), (.patch, "/items/{item}"), (.delete, "/items/{item}"),
            (.post, "/items/{item}/restore"), (.put, "/items/{item}/image"), (.delete, "/items/{item}/image"),
        ] {
            add(method, catalog + pattern, .key(.write, catalogParameter: "id", filtered: false))
        }
        add(.post, catalog + "/import", .key(.import, catalogParameter: "id", filtered: false))
        add(.post, catalog + "/import/preview", .key(.import, catalogParameter: "id", filtered: false))
        add(.get, "/api/v1/imports/{job}", .key(.import, catalogParameter: nil, filtered: false))
        add(.patch, catalog, .key(.admin, catalogParameter: "id", filtered: false))
        add(.delete, catalog, .key(.admin, catalogParameter: "id", filtered: false))
        add(.post, "/api/v1/catalogs", .key(.admin, catalogParameter: nil, filtered: false))
        add(.get, catalog + "/members", .key(.admin, catalogParameter: "id", filtered: false))
        for method in [HTTPMethod.get, .put, .delete] {
            add(method, catalog + "/members/{user}", .key(.admin, catalogParameter: "id", filtered: false))
        }
        // A catalog's search settings are its owners': reading and changing them takes `admin`.
        add(.get, catalog + "/settings", .key(.admin, catalogParameter: "id", filtered: false))
        add(.patch, catalog + "/settings", .key(.admin, catalogParameter: "id", filtered: false))
        // The audit log: administrators' (a key of theirs for every catalog, with `admin`).
        add(.get, "/api/v1/audit", .key(.admin, catalogParameter: nil, filtered: false))
        add(.get, "/api/v1/favorites", .key(.read, catalogParameter: nil, filtered: true))
        add(.put, "/api/v1/favorites/{catalog}/{item}", .key(.write, catalogParameter: "catalog", filtered: false))
        add(.delete, "/api/v1/favorites/{catalog}/{item}", .key(.write, catalogParameter: "catalog", filtered: false))
        let credentials = "an API key cannot manage API keys or sessions: use your token or a session"
        for (method, pattern) in [
            (HTTPMethod.get, "/api/v1/keys"), (.post, "/api/v1/keys"), (.delete, "/api/v1/keys/{name}"),
            (.post, "/api/v1/signin"), (.post, "/api/v1/signout"),
        ] {
            add(method, pattern, .refused(credentials))
        }
        for pattern in ["/api/v1/openapi.json", "/healthz", "/readyz", "/metrics", "/images/{path...}"] {
            add(.get, pattern, .open)
        }
        return table
    }()

    /// The table's key of a route.
    static func key(_ method: HTTPMethod, _ pattern: String) -> String { method.rawValue + " " + pattern }

    /// What the route of `method` and `pattern` asks of a key; routes outside the table refuse
    /// keys.
    static func requirement(_ method: HTTPMethod, _ pattern: String) -> Requirement {
        let method = method == .head ? .get : method
        return table[key(method, pattern)]
            ?? .refused("API keys are accepted by the JSON API (/api/v1/…); this route does not take them")
    }
}
