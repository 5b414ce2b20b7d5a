import CatalogSupport
import Foundation

/// What a catalog's last import read, so that importing the same thing again the same way is
/// recognised without reading it: the digest of the source's bytes together with every option
/// that decides what they become, and the digest of the definition that import stored.
///
/// An import whose ``source`` equals the stored one, into a catalog whose definition still has
/// the stored ``definition`` digest (nothing changed it since), has nothing to do.
public struct ImportStamp: Codable, Sendable, Equatable {
    /// The source's bytes and the options it was read with (``ContentDigest``).
    public var source: String
    /// The definition the import stored (``CatalogDefinition/contentDigest``).
    public var definition: String

    /// Creates a stamp.
    public init(source: String, definition: String) {
        self.source = source
        self.definition = definition
    }
}

extension CatalogDefinition {
    /// A digest of what the definition says about the records, leaving out what only remembers
    /// the last import (its stamp, a feed's `ETag` and `Last-Modified`).
    public var contentDigest: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var digest = ContentDigest()
        // Encoding a definition cannot fail: every value is a string, number or list of them.
        digest.update(Array((try? encoder.encode(withoutImportMemory)) ?? Data()))
        return digest.finalized()
    }

    /// Whether the two say the same about the records: equal but for what remembers the last
    /// import.
    public func isEquivalent(to other: CatalogDefinition) -> Bool {
        withoutImportMemory == other.withoutImportMemory
    }

    private var withoutImportMemory: CatalogDefinition {
        var plain = self
        plain.lastImport = nil
        plain.source?.etag = nil
        plain.source?.lastModified = nil
        return plain
    }
}
