import CatalogCore
import CatalogHTTP
import CatalogModel
import CatalogStorage

/// `/sitemap.xml`: a sitemap index of every record page of the public catalogs (what crawlers
/// may see; a part of another catalog is for its readers only, ``CatalogVisibilityGate``), each part at most 50,000 URLs
/// (`/sitemaps/{catalog}/{part}.xml`; part 0 also lists the catalog's list pages). The parts are
/// streamed a page of records at a time, so a million records never sit in memory. And
/// `/robots.txt`, which names the index.
struct Sitemap {
    let stores: any CatalogDatabase
    let baseURL: BaseURL

    /// URLs per part: the protocol's limit.
    static let urlsPerPart = 50_000

    /// `GET /robots.txt`.
    func robots(_ request: Request, _ context: RequestContext) throws -> Response {
        Response.text("User-agent: *\nAllow: /\nSitemap: \(baseURL.resolve(for: request))/sitemap.xml\n")
    }

    /// `GET /sitemap.xml`.
    func index(_ request: Request, _ context: RequestContext) throws -> Response {
        let base = baseURL.resolve(for: request)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
        for catalog in try stores.read({ try $0.catalogs() }) where catalog.visibility == .public {
            let parts = max(1, (catalog.count + Self.urlsPerPart - 1) / Self.urlsPerPart)
            for part in 0..<parts {
                xml +=
                    "<sitemap><loc>"
                    + Self.escape(base + "/sitemaps/" + WebPaths.encode(catalog.id) + "/\(part).xml")
                    + "</loc></sitemap>\n"
            }
        }
        xml += "</sitemapindex>\n"
        return Response.text(xml, contentType: "application/xml; charset=utf-8")
    }

    /// `GET /sitemaps/{catalog}/{part}`: `{part}` is `N.xml`.
    func part(_ request: Request, _ context: RequestContext) throws -> Response {
        let file = try context.require("part", as: String.self)
        guard file.hasSuffix(".xml"), let part = Int(file.dropLast(4)), part >= 0, part < 1000 else {
            throw HTTPError.notFound("no such sitemap")
        }
        let catalog = try stores.read { try $0.catalogOr404(context.require("catalog", as: String.self)) }
        guard part * Self.urlsPerPart < max(1, catalog.summary.count) else {
            throw HTTPError.notFound("no such sitemap")
        }
        let base = baseURL.resolve(for: request)
        let id = catalog.id
        return Response(
            status: .ok, headers: HTTPHeaders([("Content-Type", "application/xml; charset=utf-8")]),
            stream: { SitemapStream(database: stores, catalog: id, part: part, base: base) })
    }

    /// Text escaped for XML (the entities HTML and XML share).
    static func escape(_ text: String) -> String {
        var output = ""
        HTMLWriter.escape(text, into: &output)
        return output
    }
}

/// One part of the sitemap, written 500 records at a time from their positions.
final class SitemapStream: ResponseBodyStream {
    private let database: any CatalogDatabase
    private let catalog: String
    private let base: String
    private var position: Int
    private let end: Int
    private var state = State.start

    private enum State { case start, records, done }

    /// Records read per page: the most a browse page holds.
    static let pageSize = CatalogLimits.maxPageSize

    init(database: any CatalogDatabase, catalog: String, part: Int, base: String) {
        self.database = database
        self.catalog = catalog
        self.base = base
        position = part * Sitemap.urlsPerPart
        end = position + Sitemap.urlsPerPart
    }

    func nextChunk() throws -> [UInt8]? {
        var xml = ""
        switch state {
        case .start:
            xml =
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
            if position == 0 {
                for path in ["", "/hot", "/categories"] where path.isEmpty || hasTabs() {
                    xml += "<url><loc>" + Sitemap.escape(base + WebPaths.catalog(catalog) + path) + "</loc></url>\n"
                }
            }
            state = .records
        case .records:
            try database.read { reader in
                let stored = try reader.requireCatalog(catalog)
                let page = try reader.items(
                    of: stored, position: position, limit: min(Self.pageSize, max(1, end - position)))
                for item in page.items {
                    xml += "<url><loc>" + Sitemap.escape(base + WebPaths.item(catalog, item.id)) + "</loc></url>\n"
                }
                position += page.items.count
                if page.items.isEmpty || position >= end || position >= page.count {
                    xml += "</urlset>\n"
                    state = .done
                }
            }
        case .done:
            return nil
        }
        return Array(xml.utf8)
    }

    private func hasTabs() -> Bool {
        (try? database.read { try $0.catalog(catalog)?.definition.categories.isEmpty } == false) ?? false
    }
}
