import CatalogEngines
@testable import CatalogCore
import CatalogModel
import CatalogStorage
import CatalogTestSupport
import Foundation
import Testing

/// Where a database keeps its loaded indexes' large parts (``IndexFiles``), on every engine: a
/// server's are mapped files, unlinked at once; the command line's stay on the heap.
@Suite struct IndexFilesTests {
    @Test(arguments: CatalogBehaviourTests.engines)
    func aDatabaseWithIndexFilesReadsItsLexiconAndPricesFromThem(engine: TemporaryDatabase.Engine) throws {
        let fixture = try StoreFixture(engine)
        try fixture.load(StoreFixture.cookbook, StoreFixture.recipes)
        try fixture.read { reader in
            #expect(reader.indexCache.files?.directory == fixture.temporary.directory.path)
            let catalog = try reader.requireCatalog("cookbook")
            let segments = try reader.loadedSegments(of: catalog)
            #expect(!segments.isEmpty)
            for segment in segments {
                #expect(segment.index.lexicon.isMapped)
                #expect(try segment.index.prices(segment.reader).bytes.isMapped)
            }
        }
        // The files have no names: the directory holds the database's own files only.
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.temporary.directory.path)
        #expect(names.allSatisfy { !$0.hasPrefix(".catalog-index-") })
    }

    @Test func theCommandLineKeepsIndexesOnTheHeapAndAServerMapsThemBesideItsFile() {
        var options = CatalogEngines.Options()
        #expect(CatalogEngines.indexFiles(for: "/srv/catalog/catalog.sqlite", options: options) == nil)
        options.server = true
        #expect(
            CatalogEngines.indexFiles(for: "/srv/catalog/catalog.sqlite", options: options)?.directory == "/srv/catalog"
        )
        #expect(
            CatalogEngines.indexFiles(for: "catalog.sqlite", options: options)?.directory
                == FileManager.default.currentDirectoryPath)
        #expect(CatalogEngines.indexFiles(for: "postgres://localhost/catalog", options: options) != nil)
        options.indexFiles = .memory
        #expect(CatalogEngines.indexFiles(for: "/srv/catalog/catalog.sqlite", options: options) == nil)
        options.indexFiles = .directory("/var/cache/catalog")
        #expect(
            CatalogEngines.indexFiles(for: "postgres://localhost/catalog", options: options)?.directory
                == "/var/cache/catalog")
    }
}
