import CatalogModel

/// The problems a catalog document's check found, message by JSON pointer (`[:]` when `body`
/// passed, `["unexpected": …]` for another error): what the catalog document tests compare.
func changeProblems(_ body: () throws -> Any) -> [String: String] {
    do {
        _ = try body()
        return [:]
    } catch let error as CatalogChangeError {
        return Dictionary(error.problems.map { ($0.pointer, $0.message) }, uniquingKeysWith: { first, _ in first })
    } catch {
        return ["unexpected": "\(error)"]
    }
}
