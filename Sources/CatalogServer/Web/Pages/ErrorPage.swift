import CatalogHTTP

/// Errors of web pages as pages (the API and the original endpoints keep their JSON errors).
enum ErrorPage {
    @Sendable static func render(_ error: HTTPError, _ request: Request) -> Response {
        let path = request.rawPath
        if path.hasPrefix("/api/") || path.hasPrefix("/get") || path.hasPrefix("/catalogs/")
            || path.hasPrefix("/images/")
            || path.hasPrefix("/assets/")
        {
            return ErrorMiddleware.json(error, request)
        }
        var html = HTMLWriter()
        html.raw("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        html.element("title", text: "\(error.status.rawValue)")
        html.element("link", ["rel": "stylesheet", "href": WebAssets.stylesheet.path])
        html.raw("</head><body><main id=\"main\" class=\"error-page\">")
        html.element("h1", text: "\(error.status.rawValue)")
        html.element("p", text: error.message)
        html.raw("<p><a href=\"/\">Catalogs</a></p></main></body></html>")
        var response = Response.text(html.output, status: error.status, contentType: "text/html; charset=utf-8")
        for (name, value) in error.headers { response.headers.add(name, value) }
        WebHeaders.apply(to: &response)
        return response
    }
}
