import CatalogHTTP
import CatalogModel
import CatalogSQLite

/// `/`: the catalogs with their counts and links to their API and feed (the web app replaces
/// this page).
struct HomeRoutes {
    let stores: StoreProvider

    func register(in routes: inout RouterBuilder) {
        let stores = stores
        routes.get("/") { _, _ in
            let catalogs = try stores.reader().catalogs()
            var html = """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>Catalog</title></head>
                <body><main><h1>Catalogs</h1><ul>

                """
            for catalog in catalogs {
                let id = HTML.escape(catalog.id)
                html += "<li><a href=\"/api/v1/catalogs/\(id)/items\">\(HTML.escape(catalog.title))</a> "
                html += "(\(catalog.count)) · <a href=\"/catalogs/\(id)/feed.xml\">feed</a></li>\n"
            }
            html += "</ul><p><a href=\"/api/v1/openapi.json\">API (OpenAPI)</a></p></main></body></html>\n"
            var response = Response.text(html, contentType: "text/html; charset=utf-8")
            response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'self'; img-src 'self'"
            return response
        }
    }
}

/// Escaping for HTML text and attribute values.
enum HTML {
    static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }
}
