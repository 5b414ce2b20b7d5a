import CatalogClient
import Foundation

/// The music-software overview: one flat list of programs, substring search from the first
/// letter, the platform scopes with their counts, and a detail page with a placeholder.
enum SequencersSamples {
    // sample: program-row
    /// One row of the list: the title, and the platforms as the original showed them.
    struct ProgramRow: Identifiable, Sendable {
        let id: String
        let title: String
        let subtitle: String

        init(_ record: Record, phrases: CatalogPhrases) {
            id = record.id
            title = record.title
            subtitle = record.subtitle ?? "\(phrases.category) \(record.categories.joined(separator: ", "))"
        }
    }
    // end

    static func list(client: CatalogClient) async throws -> [ProgramRow] {
        // sample: program-list
        let catalog = try await client.catalog("sequencers")
        let phrases = CatalogPhrases.forLocale(catalog.locale)
        var rows: [ProgramRow] = []
        for try await record in client.allItems(of: catalog.id) {
            rows.append(ProgramRow(record, phrases: phrases))
        }
        // end
        return rows
    }

    static func feed(client: CatalogClient) async throws {
        // sample: program-feed
        // The original app read the XML feed; the same records, mapped by the catalog's definition:
        let programs = try await client.feed(of: "sequencers")
        print(programs.map(\.title))
        // end
    }

    // sample: program-search
    /// Search as you type: every change starts a search after a short pause and cancels the
    /// one before, so only the last answer is shown.
    @MainActor final class ProgramSearch {
        let client: CatalogClient
        private(set) var response: SearchResponse?
        private var running: Task<Void, Never>?

        init(client: CatalogClient) { self.client = client }

        func update(text: String, scope: String?) {
            running?.cancel()
            running = Task {
                try? await Task.sleep(for: .milliseconds(150))
                guard !Task.isCancelled else { return }
                do {
                    response = try await client.search(SearchRequest(query: text, scope: scope), in: "sequencers")
                } catch let error as CatalogClientError where error.code == .cancelled {
                    // A newer search replaced this one.
                } catch {
                    print(error)
                }
            }
        }

        /// The scope buttons' titles: `Windows (3)`.
        var scopeTitles: [String] {
            response?.scopes.map { "\($0.label) (\($0.count)\($0.capped ? "+" : ""))" } ?? []
        }
    }
    // end

    // sample: program-detail
    /// The detail page's texts.
    struct ProgramDetail: Sendable {
        let title: String
        let description: String
        let platforms: String

        init(_ record: Record, phrases: CatalogPhrases) {
            title = record.title
            description = record.description.flatMap { $0.isEmpty ? nil : $0 } ?? phrases.noDescription
            platforms = record.categories.joined(separator: ", ")
        }
    }
    // end

    // sample: program-highlight
    /// The matched parts of a title as Foundation ranges, for bold text in a list row.
    static func matchedRanges(of hit: SearchHit) -> [NSRange] {
        hit.matches.filter { $0.field == "title" }.map { NSRange(location: $0.start, length: $0.length) }
    }
    // end
}
