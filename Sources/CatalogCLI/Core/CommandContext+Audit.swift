import CatalogServer
import CatalogStorage

extension CommandContext {
    /// Records a security event the command caused in `database`'s audit log (as the server does
    /// for its requests) and waits until it is written. One that cannot be written is said on
    /// standard error; it never fails the command. Events of the command line name no actor,
    /// address or request: whoever may run it may open the database.
    ///
    /// ```swift
    /// context.audit(.roleGranted, in: database, catalog: "cookbook", target: "mari", detail: "editor")
    /// ```
    func audit(
        _ kind: AuditEvent.Kind, in database: any CatalogDatabase, catalog: String? = nil, target: String? = nil,
        detail: String? = nil
    ) {
        let log = AuditLog(database: database, log: { printError("catalog: \($0)") })
        log.record(kind, catalog: catalog, target: target, detail: detail)
        log.close()
    }
}
