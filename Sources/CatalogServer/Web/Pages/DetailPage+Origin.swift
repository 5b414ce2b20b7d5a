import CatalogHTTP

extension DetailPage {
    /// Where a detail page was opened from, carried in its URL so that its back link, its tab and
    /// the page after a favorite form return there: the list at the same place or with its search
    /// (``ListState``), in the whole catalog or one of the cookbook's tabs (`via=hot`,
    /// `via=favorites`, `via=categories/3`).
    struct Origin {
        /// The list's place or search.
        var list: ListState
        /// `hot`, `favorites`, `categories` or `categories/N`.
        var via: String?

        init(_ request: Request) throws {
            list = try ListState(request)
            list.open = nil
            via = request.query("via").flatMap(Self.validVia)
        }

        init(list: ListState = ListState(), via: String?) {
            self.list = list
            self.list.open = nil
            self.via = via.flatMap(Self.validVia)
        }

        /// The query string that brings this origin along (`""` for the top of the plain list).
        var query: String {
            let list = list.backQuery
            guard let via else { return list }
            return list.isEmpty ? WebPaths.query([("via", via)]) : list + "&via=" + WebPaths.encode(via)
        }

        /// The tab to show as selected.
        var tab: String {
            guard let via else { return "all" }
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
