import CLibPQ
import CatalogStorage

extension StorageError {
    /// The error a failed statement's result describes: the server's primary message (which
    /// names no bound value), its SQLSTATE as the engine code, and the statement for logs.
    static func postgres(result: OpaquePointer, location: PostgresLocation, statement: String) -> StorageError {
        let state = clibpq_result_sqlstate(result).map { String(cString: $0) } ?? ""
        var message = clibpq_result_primary_message(result).map { String(cString: $0) } ?? ""
        if message.isEmpty {
            message = PostgresConnection.oneLine(PQresultErrorMessage(result).map { String(cString: $0) } ?? "")
        }
        if message.isEmpty { message = "the statement failed" }
        return StorageError(
            code(sqlState: state), "PostgreSQL: " + location.scrubbed(message), engineCode: state.isEmpty ? nil : state,
            statement: statement)
    }

    /// The storage code for a SQLSTATE.
    static func code(sqlState state: String) -> Code {
        switch state {
        case "55P03", "40001", "40P01": .busy
        case "57014": .cancelled
        case "53100": .full
        case "22021", "22P05", "54000": .invalidArgument
        case "3D000", "28000", "28P01": .cannotOpen
        case _ where state.hasPrefix("23"): .constraint
        default: .engine
        }
    }
}
