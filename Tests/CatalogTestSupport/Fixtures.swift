import Foundation

/// A fixture file (`Tests/CatalogTestSupport/Fixtures/NAME`): files of our own making in the
/// shapes real sources have.
public func fixture(_ name: String) -> URL {
    Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil)!
}
