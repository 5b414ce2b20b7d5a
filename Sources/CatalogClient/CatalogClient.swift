@_exported import CatalogModel
// The caps a request may ask for, which the client's parameters document, are the server's own.
@_exported import enum CatalogCore.CatalogLimits
import CatalogCore
import CatalogSupport
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A Catalog server's JSON API, with async/await: catalogs, sections, pages of records, search,
/// categories, featured records, favorites, sign-in, imports, the original cookbook endpoints and
/// XML feeds; offline snapshots (``download(catalog:to:progress:)``) and images.
///
/// ```swift
/// let client = CatalogClient(baseURL: URL(string: "http://localhost:8080")!)
/// let catalogs = try await client.catalogs()
/// let results = try await client.search(SearchRequest(query: "paprik"), in: "cookbook")
/// ```
///
/// Every call throws ``CatalogClientError`` and nothing else; cancelling the calling task cancels
/// its request. GET answers are kept on disk with their ETags (see ``Cache``), so asking again for
/// something unchanged costs a 304 without a body. The client is `Sendable`: share one.
public final class CatalogClient: Sendable {
    /// Where the client keeps answers and images between runs.
    public enum Cache: Sendable, Equatable {
        /// A folder of the system's caches directory, per server.
        case standard
        /// This folder.
        case directory(URL)
        /// Nothing on disk (images are still kept in memory).
        case none
    }

    /// The server, such as `https://catalog.example.org`.
    public let baseURL: URL
    /// The session whose configuration requests are sent with. The client sends them through a
    /// session of its own made with this configuration, whose delegate reads each answer as it
    /// arrives (so ``timeout`` can count silence); this session's delegate is not called.
    public let session: URLSession
    /// The longest the server may stay silent during a request, in seconds: until the answer
    /// starts, and between any two pieces of it. An answer that keeps arriving is never cut off
    /// by it, however long it takes in all (see ``totalTimeout``).
    public let timeout: TimeInterval
    /// The longest a whole request may take, in seconds, however steadily its answer arrives;
    /// nil (the default) for no limit but ``timeout``'s.
    public let totalTimeout: TimeInterval?
    /// Other servers with the same catalogs (replicas behind no load balancer): a read that
    /// fails in a way that may pass is tried again on the next one (``retry``).
    public let mirrors: [URL]
    /// When reads are tried again (``RetryPolicy``); writes never are.
    public let retry: RetryPolicy
    let transport: HTTPTransport
    let store: ResponseStore?
    let images: ImageLoader
    private let currentToken: Mutex<String?>
    private let staleDate = Mutex<Date?>(nil)

    /// When the server could not be reached (or failed) for the last read, and the client
    /// answered it from its disk cache instead: the time that copy was stored. Nil when the last
    /// read was answered by the server (or there is no cache). An app shows "offline, as of …"
    /// while it is set.
    ///
    /// ```swift
    /// let page = try await client.items(of: "products")
    /// if let since = client.staleSince { banner.text = "Offline: as of \(since.formatted())" }
    /// ```
    public var staleSince: Date? { staleDate.withLock { $0 } }

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - baseURL: the server (`http://localhost:8080`); a path is kept (`https://host/catalog`).
    ///   - session: the session to send requests through.
    ///   - token: an API token (`catalog user add`) or one ``signIn(name:password:)`` returned.
    ///   - cache: where answers and images are kept between runs.
    ///   - timeout: seconds the server may stay silent during a request (before its answer
    ///     starts, or between two pieces of it), ``timeout``.
    ///   - totalTimeout: seconds a whole request may take, nil for no limit (``totalTimeout``).
    ///   - mirrors: other servers of the same catalogs, for reads tried again (``mirrors``).
    ///   - retry: when reads are tried again (``RetryPolicy/standard``: three attempts).
    ///
    /// A session with a background configuration cannot carry the client's requests: each is
    /// refused with ``CatalogClientError/Code/invalidArgument``, saying so.
    public init(
        baseURL: URL, session: URLSession = .shared, token: String? = nil, cache: Cache = .standard,
        timeout: TimeInterval = 30, totalTimeout: TimeInterval? = nil, mirrors: [URL] = [],
        retry: RetryPolicy = .standard
    ) {
        self.baseURL = baseURL
        self.session = session
        self.timeout = timeout
        self.totalTimeout = totalTimeout
        self.mirrors = mirrors
        self.retry = retry
        transport = HTTPTransport(configuration: session.configuration, totalTimeout: totalTimeout)
        currentToken = Mutex(token)
        let directory: URL? =
            switch cache {
            case .standard: Self.standardCacheDirectory(for: baseURL)
            case .directory(let url): url
            case .none: nil
            }
        store = directory.map { ResponseStore(directory: $0.appendingPathComponent("answers")) }
        images = ImageLoader(directory: directory?.appendingPathComponent("images"))
    }

    deinit {
        transport.invalidate()
    }

    /// The bearer token sent with every request, nil for none.
    public var token: String? {
        get { currentToken.withLock { $0 } }
        set { currentToken.withLock { $0 = newValue } }
    }

    /// `Caches/CatalogClient/<host>-<port>` (on Linux `~/.cache/CatalogClient/…`).
    public static func standardCacheDirectory(for baseURL: URL) -> URL {
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        let host = (baseURL.host ?? "server").filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
        return caches.appendingPathComponent("CatalogClient").appendingPathComponent("\(host)-\(baseURL.port ?? 0)")
    }

    // MARK: - Catalogs

    /// Every catalog on the server, ordered by id.
    ///
    /// - Throws: ``CatalogClientError``.
    public func catalogs() async throws(CatalogClientError) -> [CatalogSummary] {
        try await get(["api", "v1", "catalogs"], as: CatalogList.self).catalogs
    }

    /// One catalog: its title, locale, scopes, field order and index labels.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound` for an unknown catalog.
    public func catalog(_ id: String) async throws(CatalogClientError) -> CatalogDetail {
        try await get(["api", "v1", "catalogs", Self.segment(id)], as: CatalogDetail.self)
    }

    /// The catalog's non-empty index sections in the locale's order (`A`, `B`, … `CS` … `#`).
    ///
    /// - Throws: ``CatalogClientError`` `.notFound` for an unknown catalog.
    public func sections(of catalog: String) async throws(CatalogClientError) -> [SectionCount] {
        try await get(["api", "v1", "catalogs", Self.segment(catalog), "sections"], as: SectionList.self).sections
    }

    /// A page of records in index order.
    ///
    /// - Parameters:
    ///   - catalog: the catalog's id.
    ///   - section: only this section's records (a label from ``sections(of:)``).
    ///   - after: a page's `next` cursor: the page after it.
    ///   - before: a page's `previous` cursor: the page before it.
    ///   - limit: records per page, 1 to `CatalogLimits.maxPageSize` (500).
    /// - Throws: ``CatalogClientError`` `.notFound`, `.badRequest` for a bad cursor or limit.
    public func items(
        of catalog: String, section: String? = nil, after: String? = nil, before: String? = nil,
        limit: Int = CatalogLimits.defaultPageSize
    ) async throws(CatalogClientError) -> ItemsPage {
        var query = [("limit", String(limit))]
        if let section { query.append(("section", section)) }
        if let after { query.append(("after", after)) }
        if let before { query.append(("before", before)) }
        return try await get(
            ["api", "v1", "catalogs", Self.segment(catalog), "items"], query: query, as: ItemsPage.self)
    }

    /// A page starting at section `label` and going on (the index rail's jump); its `previous`
    /// cursor reaches the records before.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound` for a label the locale does not have.
    public func items(of catalog: String, startingAt label: String, limit: Int = CatalogLimits.defaultPageSize)
        async throws(CatalogClientError)
        -> ItemsPage
    {
        try await get(
            ["api", "v1", "catalogs", Self.segment(catalog), "items"],
            query: [("limit", String(limit)), ("start", label)],
            as: ItemsPage.self)
    }

    /// Every record of the catalog in index order, fetched a page at a time as it is iterated.
    ///
    /// ```swift
    /// for try await record in client.allItems(of: "products") { print(record.title) }
    /// ```
    public func allItems(of catalog: String, pageSize: Int = 200) -> RecordPages {
        RecordPages(pageSize: pageSize) { cursor, limit throws(CatalogClientError) in
            try await self.items(of: catalog, after: cursor, limit: limit)
        }
    }

    /// One record.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound`.
    public func item(_ id: String, of catalog: String) async throws(CatalogClientError) -> Record {
        try await get(["api", "v1", "catalogs", Self.segment(catalog), "items", Self.segment(id)], as: Record.self)
    }

    /// Searches a catalog: ranked hits with their matched ranges, the total, a count per scope,
    /// facet counts when asked for, and the cursor of the next page.
    ///
    /// ```swift
    /// var request = SearchRequest(query: "klang", scope: "Apple&Win")
    /// request.facets = [.categories]
    /// let response = try await client.search(request, in: "sequencers")
    /// ```
    ///
    /// - Throws: ``CatalogClientError`` `.notFound` for an unknown catalog or scope, `.badRequest`
    ///   for a malformed parameter.
    public func search(_ request: SearchRequest, in catalog: String) async throws(CatalogClientError)
        -> SearchResponse
    {
        try await get(
            ["api", "v1", "catalogs", Self.segment(catalog), "search"], query: Self.query(of: request),
            as: SearchResponse.self)
    }

    /// The values of a facet (a record field's name, `categories` or `country`) that start with
    /// `prefix` (case and accents aside), each counted among the records `request` matches (its
    /// query, scope and filters; its facets, sort and paging play no part), the most common first,
    /// at most `limit`: a search inside a long list of values
    /// (`GET /api/v1/catalogs/{id}/facets/{field}?q=PREFIX&search=QUERY`).
    ///
    /// ```swift
    /// let origins = try await client.facetValues("Origin", startingWith: "ja", for: SearchRequest(query: "toyota"), in: "cars")
    /// ```
    ///
    /// - Throws: ``CatalogClientError`` `.badRequest` for a field the catalog does not have, `.notFound`.
    public func facetValues(
        _ field: String, startingWith prefix: String = "", for request: SearchRequest = SearchRequest(query: ""),
        in catalog: String, limit: Int = CatalogLimits.defaultSearchLimit
    ) async throws(CatalogClientError) -> [FacetCount] {
        var query = Self.query(of: request).filter { !["q", "facets", "sort", "after", "limit"].contains($0.0) }
        if !request.query.isEmpty { query.append(("search", request.query)) }
        query.append(("q", prefix))
        query.append(("limit", String(limit)))
        return try await get(
            ["api", "v1", "catalogs", Self.segment(catalog), "facets", Self.segment(field)], query: query,
            as: FacetValueList.self
        ).values
    }

    /// The answer of the facet value search.
    struct FacetValueList: Decodable {
        var field: String
        var values: [FacetCount]
    }

    /// The catalog's categories with their numbers and counts, in display order.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound`.
    public func categories(of catalog: String) async throws(CatalogClientError) -> [CategoryCount] {
        try await get(["api", "v1", "catalogs", Self.segment(catalog), "categories"], as: CategoryList.self).categories
    }

    /// A page of one category's records in index order.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound` for an unknown category.
    public func items(
        of catalog: String, category: String, after: String? = nil, before: String? = nil,
        limit: Int = CatalogLimits.defaultPageSize
    ) async throws(CatalogClientError) -> ItemsPage {
        var query = [("limit", String(limit))]
        if let after { query.append(("after", after)) }
        if let before { query.append(("before", before)) }
        return try await get(
            ["api", "v1", "catalogs", Self.segment(catalog), "categories", Self.segment(category), "items"],
            query: query, as: ItemsPage.self)
    }

    /// The featured ("hot") records by rank.
    ///
    /// - Throws: ``CatalogClientError`` `.notFound`.
    public func featured(of catalog: String, limit: Int = CatalogLimits.defaultPageSize)
        async throws(CatalogClientError) -> [Record]
    {
        try await get(
            ["api", "v1", "catalogs", Self.segment(catalog), "featured"], query: [("limit", String(limit))],
            as: RecordList.self
        ).items
    }

    // MARK: - Accounts and favorites

    /// Signs in with a name and password; the token it returns is used for every later request
    /// (``token``), and lasts 30 days.
    ///
    /// - Throws: ``CatalogClientError`` `.unauthorized` (`sign_in_failed`) for a wrong name or
    ///   password, `.tooManyRequests` with ``CatalogClientError/retryAfter`` after too many.
    @discardableResult
    public func signIn(name: String, password: String) async throws(CatalogClientError) -> SignInResponse {
        let body: Data
        do {
            body = try JSONEncoder().encode(SignInRequest(name: name, password: password))
        } catch {
            throw CatalogClientError(.invalidArgument, "the name or password cannot be sent")
        }
        let answer = try await send(
            "POST", ["api", "v1", "signin"], body: body, contentType: "application/json", authenticated: false)
        let response = try decode(SignInResponse.self, answer)
        token = response.token
        return response
    }

    /// Ends the session ``signIn(name:password:)`` started and forgets the token.
    ///
    /// - Throws: ``CatalogClientError``.
    public func signOut() async throws(CatalogClientError) {
        defer { token = nil }
        _ = try await send("POST", ["api", "v1", "signout"])
    }

    /// The signed-in user's favorites, newest first, with their records (nil when a record no
    /// longer exists).
    ///
    /// - Throws: ``CatalogClientError`` `.unauthorized` without a valid token.
    public func favorites() async throws(CatalogClientError) -> [FavoriteEntry] {
        try await get(["api", "v1", "favorites"], as: FavoriteList.self).favorites
    }

    /// Marks a record as a favorite (nothing changes when it already is one).
    ///
    /// - Throws: ``CatalogClientError`` `.unauthorized`, `.notFound` for an unknown record.
    public func addFavorite(_ item: String, in catalog: String) async throws(CatalogClientError) {
        _ = try await send("PUT", ["api", "v1", "favorites", Self.segment(catalog), Self.segment(item)])
    }

    /// Unmarks a favorite (nothing changes when it is not one).
    ///
    /// - Throws: ``CatalogClientError`` `.unauthorized`.
    public func removeFavorite(_ item: String, in catalog: String) async throws(CatalogClientError) {
        _ = try await send("DELETE", ["api", "v1", "favorites", Self.segment(catalog), Self.segment(item)])
    }

    // MARK: - Imports

    /// How an upload is read (``importCatalog(_:data:format:options:)``).
    public struct ImportOptions: Sendable, Equatable {
        /// XML: the record element; JSON: the key holding the records.
        public var record: String?
        /// SQLite: the table.
        public var table: String?
        /// Remove the records the upload does not have.
        public var replace = false
        /// A new catalog's locale.
        public var locale: String?
        /// The catalog's title.
        public var title: String?

        /// No options: the server's defaults.
        public init(
            record: String? = nil, table: String? = nil, replace: Bool = false, locale: String? = nil,
            title: String? = nil
        ) {
            self.record = record
            self.table = table
            self.replace = replace
            self.locale = locale
            self.title = title
        }
    }

    /// The formats an upload may have.
    public enum ImportFormat: String, Sendable, CaseIterable {
        case xml, json, csv, sqlite

        var contentType: String {
            switch self {
            case .xml: "application/xml"
            case .json: "application/json"
            case .csv: "text/csv"
            case .sqlite: "application/vnd.sqlite3"
            }
        }
    }

    /// Imports a file into a catalog (administrators only): all or nothing.
    ///
    /// - Throws: ``CatalogClientError`` `.forbidden` for other users, `.unprocessable` for a
    ///   malformed file (the message says where), `.payloadTooLarge`.
    public func importCatalog(
        _ catalog: String, data: Data, format: ImportFormat, options: ImportOptions = ImportOptions()
    ) async throws(CatalogClientError) -> ImportSummary {
        var query = [("format", format.rawValue)]
        if let record = options.record { query.append(("record", record)) }
        if let table = options.table { query.append(("table", table)) }
        if options.replace { query.append(("replace", "true")) }
        if let locale = options.locale { query.append(("locale", locale)) }
        if let title = options.title { query.append(("title", title)) }
        let answer = try await send(
            "POST", ["api", "v1", "catalogs", Self.segment(catalog), "import"], query: query, body: data,
            contentType: format.contentType)
        return try decode(ImportSummary.self, answer)
    }

    // MARK: - Requests

    /// A path segment: never empty, so an id cannot change which route is asked.
    static func segment(_ value: String) throws(CatalogClientError) -> String {
        guard !value.isEmpty else { throw CatalogClientError(.invalidArgument, "an id must not be empty") }
        return value
    }

    /// The search's query parameters, as the API reads them.
    static func query(of request: SearchRequest) -> [(String, String)] {
        var query: [(String, String)] = []
        if !request.query.isEmpty { query.append(("q", request.query)) }
        if let scope = request.scope { query.append(("scope", scope)) }
        for category in request.categories { query.append(("category", category)) }
        for country in request.countries { query.append(("country", country)) }
        if let price = request.price { query.append(("price", price.description)) }
        if let filter = request.filter { query.append(("filter", filter.description)) }
        if !request.facets.isEmpty { query.append(("facets", request.facets.map(\.rawValue).joined(separator: ","))) }
        if request.sort != .relevance { query.append(("sort", request.sort.rawValue)) }
        if let after = request.after { query.append(("after", after)) }
        query.append(("limit", String(request.limit)))
        return query
    }

    /// Characters a query value or path segment may carry unescaped: the unreserved ones.
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The URL of `path` (segments, each escaped) with `query`.
    func url(_ path: [String], query: [(String, String)] = []) -> URL {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        for segment in path {
            text += "/" + (segment.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "")
        }
        if !query.isEmpty {
            text +=
                "?"
                + query.map { name, value in
                    name + "=" + (value.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "")
                }.joined(separator: "&")
        }
        return URL(string: text) ?? baseURL
    }

    /// The cache key of a GET: its URL, and who asks (a hash of the token, never the token).
    func cacheKey(_ url: URL) -> String {
        guard let token else { return url.absoluteString }
        return url.absoluteString + "\n" + ContentDigest.hex(of: Array(token.utf8))
    }

    /// A request with the client's headers.
    func request(_ method: String, _ url: URL, authenticated: Bool = true) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if authenticated, let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        return request
    }

    /// GETs `path` and decodes the answer, revalidating a stored copy with `If-None-Match`.
    func get<T: Decodable>(_ path: [String], query: [(String, String)] = [], as type: T.Type)
        async throws(CatalogClientError) -> T
    {
        let answer = try await fetch(url(path, query: query))
        return try decode(type, answer)
    }

    /// GETs `url`: a stored copy is revalidated (a 304 answers with the stored body), a new one
    /// stored. Only successful answers come back.
    func fetch(_ url: URL) async throws(CatalogClientError) -> HTTPAnswer {
        try await fetch(url, in: store)
    }

    /// GETs `url` with `store` keeping the answers (nil: none).
    func fetch(_ url: URL, in store: ResponseStore?) async throws(CatalogClientError) -> HTTPAnswer {
        var request = request("GET", url)
        let key = cacheKey(url)
        let stored = store?.entry(for: key)
        if let stored {
            if stored.maxAge > 0, Date().timeIntervalSince(stored.stored) < stored.maxAge {
                return HTTPAnswer(status: 200, body: stored.body, headers: ["etag": stored.etag ?? ""])
            }
            if let etag = stored.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        }
        let answer: HTTPAnswer
        do {
            answer = try await sendRetrying(request)
        } catch {
            // Unreachable: the stored answer stands in (and says since when), anything else is the error.
            guard error.isConnectivity, let stored else { throw error }
            return answerFromCache(stored)
        }
        if answer.status >= 500, let stored { return answerFromCache(stored) }
        staleDate.withLock { $0 = nil }
        if answer.status == 304, let stored {
            store?.store(
                ResponseStore.Entry(etag: stored.etag, body: stored.body, stored: Date(), maxAge: stored.maxAge),
                for: key)
            return HTTPAnswer(status: 200, body: stored.body, headers: answer.headers)
        }
        guard (200..<300).contains(answer.status) else { throw failure(answer, url: url) }
        if let store, let etag = answer[header: "ETag"] {
            let age = Self.maxAge(answer[header: "Cache-Control"])
            store.store(ResponseStore.Entry(etag: etag, body: answer.body, stored: Date(), maxAge: age), for: key)
        }
        return answer
    }

    /// A stored answer given when the server cannot answer, noted in ``staleSince``.
    private func answerFromCache(_ stored: ResponseStore.Entry) -> HTTPAnswer {
        staleDate.withLock { $0 = stored.stored }
        return HTTPAnswer(status: 200, body: stored.body, headers: ["etag": stored.etag ?? ""])
    }

    /// Sends a read, trying it again as ``retry`` allows, each time on the next server
    /// (``baseURL``, then each of ``mirrors``). Answers that will not change by trying again
    /// (2xx, 304, 4xx but 429) come back at once; the last answer or error when none is left.
    func sendRetrying(_ first: URLRequest) async throws(CatalogClientError) -> HTTPAnswer {
        let servers = [baseURL] + mirrors
        var request = first
        var attempt = 1
        while true {
            var answer: HTTPAnswer?
            let error: CatalogClientError
            do {
                let received = try await transport.send(request)
                guard received.status == 429 || received.status >= 500, let url = request.url else { return received }
                answer = received
                error = failure(received, url: url)
            } catch let thrown {
                error = thrown
            }
            guard let wait = retry.delay(after: error, attempt: attempt) else {
                if let answer { return answer }
                throw error
            }
            do {
                try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            } catch {
                throw CatalogClientError(
                    .cancelled, "the request was cancelled", url: request.url.map(CatalogClientError.display))
            }
            let from = servers[(attempt - 1) % servers.count]
            attempt += 1
            request.url = request.url.map { Self.rebase($0, from: from, onto: servers[(attempt - 1) % servers.count]) }
        }
    }

    /// `url`, made from server `from`, on server `onto` instead (the same path and query).
    static func rebase(_ url: URL, from: URL, onto: URL) -> URL {
        func root(_ server: URL) -> String {
            var text = server.absoluteString
            while text.hasSuffix("/") { text.removeLast() }
            return text
        }
        let text = url.absoluteString
        let prefix = root(from)
        guard from != onto, text.hasPrefix(prefix) else { return url }
        return URL(string: root(onto) + text.dropFirst(prefix.count)) ?? url
    }

    /// Sends a request that changes something (or is not cached).
    func send(
        _ method: String, _ path: [String], query: [(String, String)] = [], body: Data? = nil,
        contentType: String? = nil, headers: [(String, String)] = [], authenticated: Bool = true
    ) async throws(CatalogClientError) -> HTTPAnswer {
        let url = url(path, query: query)
        var request = request(method, url, authenticated: authenticated)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        }
        let answer = try await transport.send(request)
        guard (200..<300).contains(answer.status) else { throw failure(answer, url: url) }
        return answer
    }

    /// Decodes an answer's body with the literal-keeping decoder.
    func decode<T: Decodable>(_ type: T.Type, _ answer: HTTPAnswer) throws(CatalogClientError) -> T {
        do {
            return try CatalogJSONDecoder().decode(type, from: answer.body)
        } catch {
            throw CatalogClientError.decoding(error, url: nil)
        }
    }

    /// The error an unsuccessful answer stands for, with the API's code and message when it sent
    /// them.
    func failure(_ answer: HTTPAnswer, url: URL) -> CatalogClientError {
        let body = try? CatalogJSONDecoder().decode(APIErrorBody.self, from: answer.body)
        var code = CatalogClientError.code(forStatus: answer.status)
        let message =
            body?.error.message
            ?? "the server answered \(answer.status) \(HTTPURLResponse.localizedString(forStatusCode: answer.status))"
        var problems: [RecordProblem] = []
        if answer.status == 422, body?.error.code == "invalid_record" {
            code = .invalidRecord
            problems = (try? CatalogJSONDecoder().decode(ProblemsBody.self, from: answer.body))?.problems ?? []
        }
        return CatalogClientError(
            code, message, status: answer.status, apiCode: body?.error.code,
            retryAfter: answer[header: "Retry-After"].flatMap { Int($0) }, url: CatalogClientError.display(url),
            currentETag: answer.status == 412 ? answer[header: "ETag"] : nil, problems: problems)
    }

    /// `max-age` of a Cache-Control value (0 without one, or with `no-cache`).
    static func maxAge(_ cacheControl: String?) -> TimeInterval {
        guard let cacheControl, !cacheControl.lowercased().contains("no-cache") else { return 0 }
        for part in cacheControl.split(separator: ",") {
            let pair = part.trimmingCharacters(in: .whitespaces).lowercased()
            if pair.hasPrefix("max-age="), let seconds = TimeInterval(pair.dropFirst(8)) { return max(0, seconds) }
        }
        return 0
    }
}
