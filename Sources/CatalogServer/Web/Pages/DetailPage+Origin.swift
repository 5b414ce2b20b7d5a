import CatalogHTTP

extension DetailPage {
    /// Where a detail page was opened from, carried in its URL so that its back link, its tab and
    /// the page after a favorite form return there: the list with its search (`q`, `scope`,
    /// `search`), or one of the cookbook's tabs (`via=hot`, `via=favorites`, `via=categories/3`).
    struct Origin {
        /// The search of the list, when the record was opened from the list.
        var list: ListPage.State
        /// `hot`, `favorites`, `categories` or `categories/N`.
        var via: String?

        init(_ request: Request) throws {
            list = try ListPage.State(request)
            via = request.query("via").flatMap(Self.validVia)
        }

        init(via: String) {
            list = ListPage.State()
            self.via = Self.validVia(via)
        }

        /// The query string that brings this origin along (`""` for the plain list).
        var query: String {
            if let via { return WebPaths.query(["via": via]) }
            return list.backQuery
        }

        /// The tab to show as selected.
        var tab: String {
            guard let via else { return "" }
            return via.hasPrefix("categories") ? "categories" : via
        }

        /// The number of the category the record was opened from.
        var category: Int? {
            guard let via, via.hasPrefix("categories/") else { return nil }
            return Int(via.dropFirst("categories/".count))
        }

        static func validVia(_ value: String) -> String? {
            switch value {
            case "hot", "favorites", "categories": return value
            default:
                let number = value.dropFirst("categories/".count)
                guard value.hasPrefix("categories/"), (1...9).contains(number.count),
                    number.utf8.allSatisfy({ (0x30...0x39).contains($0) })
                else { return nil }
                return value
            }
        }
    }
}
