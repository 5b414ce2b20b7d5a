import CatalogClient
import CatalogModel

/// The ids of every page of a search, by its cursors (at most 500): how the offline tests compare
/// an offline catalog's pages with the server's.
func everyPage(of request: SearchRequest, _ search: (SearchRequest) async throws -> SearchResponse)
    async throws -> [String]
{
    var request = request
    var ids: [String] = []
    repeat {
        let page = try await search(request)
        ids += page.items.map(\.record.id)
        request.after = page.next
    } while request.after != nil && ids.count < 500
    return ids
}
