import CatalogStorage
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a ``CatalogClient`` call or an ``OfflineCatalog`` read failed, with a code to match:
///
/// ```swift
/// do {
///     let recipe = try await client.item("r01", of: "cookbook")
/// } catch let error as CatalogClientError where error.code == .notFound {
///     // show "no such recipe"
/// } catch let error as CatalogClientError where error.isConnectivity {
///     // offline: use the snapshot
/// }
/// ```
///
/// A change of a record that lost a race is ``Code/preconditionFailed`` with the record's
/// ``currentETag``; one the server refused is ``Code/invalidRecord`` with every ``problems``:
///
/// ```swift
/// do {
///     _ = try await client.put(record, in: "cookbook", ifMatch: etag)
/// } catch let error as CatalogClientError where error.code == .preconditionFailed {
///     // someone else changed it: read it again (its ETag is error.currentETag)
/// } catch let error as CatalogClientError where error.code == .invalidRecord {
///     for problem in error.problems { print(problem.pointer, problem.message) }
/// }
/// ```
///
/// `description` is a sentence for users (in English, and so is `localizedDescription`: the error
/// is a `LocalizedError`); ``message(in:)`` says the failures a screen shows most in the
/// catalog's language. `debugDescription` adds the URL (never the token), the API's error code
/// and the coding path of a malformed answer.
public struct CatalogClientError: Error, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure it is.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        /// No connection: the network is down, the host is unknown or refused the connection.
        case offline
        /// The server did not answer in time.
        case timedOut
        /// The secure connection failed (certificate, protocol).
        case tls
        /// Another network failure (the connection broke off).
        case transport
        /// 400: a parameter is malformed (also an offline catalog's bad cursor or scope).
        case badRequest
        /// 401: not signed in, or the token is no longer valid.
        case unauthorized
        /// 403: the account may not do this.
        case forbidden
        /// 404: no such catalog, item, section, category or scope.
        case notFound
        /// 409: the request conflicts with the data (a record kept changing while it was patched).
        case conflict
        /// 412: a change's condition failed: the record changed since the ETag given to `ifMatch`
        /// (or no longer exists), or it exists and `createOnly` was asked. ``currentETag`` is the
        /// record's ETag now, nil when there is no such record.
        case preconditionFailed
        /// 413: the upload is too large.
        case payloadTooLarge
        /// 415 or 422: the upload is not a catalog file (or image) the server can read.
        case unprocessable
        /// 422 `invalid_record`: a record, patch or batch has bad values; ``problems`` lists each
        /// one at its JSON pointer into what was sent. Nothing was changed.
        case invalidRecord
        /// 429: too many attempts (sign-in); ``retryAfter`` says when to try again.
        case tooManyRequests
        /// 503: the server is busy or stopping; try again.
        case unavailable
        /// Another 5xx: the server failed.
        case server
        /// Another HTTP status.
        case http
        /// The answer is not what the API sends (malformed JSON, a missing key); see ``codingPath``.
        case decoding
        /// The calling task was cancelled.
        case cancelled
        /// An argument cannot be sent (an empty id, a limit out of range).
        case invalidArgument
        /// An offline catalog's file is missing, damaged or not a catalog snapshot.
        case storage
    }

    /// What kind of failure it is.
    public var code: Code
    /// A sentence for users.
    public var message: String
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// The API's own error code (`not_found`, `bad_parameter`, `sign_in_failed`).
    public var apiCode: String?
    /// For ``Code/decoding``: where in the answer (`items[3].price`).
    public var codingPath: String?
    /// For ``Code/tooManyRequests`` and ``Code/unavailable``: seconds to wait, when the server said.
    public var retryAfter: Int?
    /// The request's URL without its query, for logs.
    public var url: String?
    /// For ``Code/preconditionFailed``: the record's ETag now (nil when it does not exist).
    public var currentETag: String?
    /// For ``Code/invalidRecord``: every bad value, at its JSON pointer into what was sent
    /// (`/price`, `/fields/weight`, `/3/upsert/title` in a batch).
    public var problems: [RecordProblem]

    /// Creates an error.
    public init(
        _ code: Code, _ message: String, status: Int? = nil, apiCode: String? = nil, codingPath: String? = nil,
        retryAfter: Int? = nil, url: String? = nil, currentETag: String? = nil, problems: [RecordProblem] = []
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.apiCode = apiCode
        self.codingPath = codingPath
        self.retryAfter = retryAfter
        self.url = url
        self.currentETag = currentETag
        self.problems = problems
    }

    /// True when the network, not the server, is the problem: ``Code/offline``, ``Code/timedOut``,
    /// ``Code/tls`` or ``Code/transport``. Offline favorites are kept for later on these.
    public var isConnectivity: Bool {
        switch code {
        case .offline, .timedOut, .tls, .transport: true
        default: false
        }
    }

    public var description: String { message }

    public var debugDescription: String {
        var text = "\(code.rawValue): \(message)"
        if let status { text += " [HTTP \(status)\(apiCode.map { " \($0)" } ?? "")]" }
        if let codingPath { text += " at \(codingPath)" }
        if let currentETag { text += " current ETag \(currentETag)" }
        for problem in problems { text += "\n  \(problem)" }
        if let url { text += " (\(url))" }
        return text
    }

    /// A sentence for users in the language of `phrases` (`CatalogPhrases.forLocale(_:)` of the
    /// catalog's locale): a connectivity failure is `phrases.unreachable`, a refused sign-in
    /// `phrases.wrongCredentials`; other failures keep ``message`` (English).
    ///
    /// ```swift
    /// let phrases = CatalogPhrases.forLocale(catalog.locale)
    /// status.text = error.message(in: phrases)   // "A szerver nem érhető el."
    /// ```
    public func message(in phrases: CatalogPhrases) -> String {
        if isConnectivity { return phrases.unreachable }
        if code == .unauthorized && apiCode == "sign_in_failed" { return phrases.wrongCredentials }
        return message
    }

    /// The code for an HTTP status.
    static func code(forStatus status: Int) -> Code {
        switch status {
        case 400: .badRequest
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 409: .conflict
        case 412: .preconditionFailed
        case 413: .payloadTooLarge
        case 415, 422: .unprocessable
        case 429: .tooManyRequests
        case 503: .unavailable
        case 500...599: .server
        default: .http
        }
    }

    /// A failure of URLSession.
    static func transport(_ error: any Error, url: URL?) -> CatalogClientError {
        let where_ = url.map(Self.display)
        if error is CancellationError {
            return CatalogClientError(.cancelled, "the request was cancelled", url: where_)
        }
        guard let urlError = error as? URLError else {
            return CatalogClientError(.transport, "the request failed: \(error.localizedDescription)", url: where_)
        }
        let host = url?.host ?? "the server"
        switch urlError.code {
        case .cancelled:
            return CatalogClientError(.cancelled, "the request was cancelled", url: where_)
        case .timedOut:
            return CatalogClientError(.timedOut, "\(host) did not answer in time", url: where_)
        case .notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed,
            .internationalRoamingOff, .dataNotAllowed:
            return CatalogClientError(.offline, "cannot reach \(host)", url: where_)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            return CatalogClientError(.tls, "the secure connection to \(host) failed", url: where_)
        default:
            return CatalogClientError(.transport, "the connection to \(host) failed", url: where_)
        }
    }

    /// A malformed answer.
    static func decoding(_ error: any Error, url: URL?) -> CatalogClientError {
        var path: String?
        var detail = "the answer is not what the API sends"
        if let error = error as? DecodingError {
            let context: DecodingError.Context?
            switch error {
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
            case .keyNotFound(let key, let c):
                context = DecodingError.Context(
                    codingPath: c.codingPath + [key], debugDescription: c.debugDescription, underlyingError: nil)
            @unknown default: context = nil
            }
            if let context {
                path = Self.path(context.codingPath)
                detail += ": " + context.debugDescription
            }
        }
        return CatalogClientError(.decoding, detail, codingPath: path, url: url.map(Self.display))
    }

    /// An offline catalog's storage failure, coded as the server would answer it (a code
    /// without a case here answers by its fault, as on the server: a user's mistake is a bad
    /// request, anything else a storage failure).
    static func storage(_ error: StorageError) -> CatalogClientError {
        switch error.code {
        case .catalogNotFound, .itemNotFound, .nameNotFound, .userNotFound:
            CatalogClientError(.notFound, error.message, apiCode: "not_found")
        case .invalidArgument:
            CatalogClientError(.badRequest, error.message, apiCode: "bad_parameter")
        case .cancelled:
            CatalogClientError(.cancelled, error.message)
        case .busy, .constraint, .cannotOpen, .full, .engine:
            CatalogClientError(.storage, error.message)
        default:
            error.fault == .user
                ? CatalogClientError(.badRequest, error.message, apiCode: "bad_parameter")
                : CatalogClientError(.storage, error.message)
        }
    }

    /// `items[3].price`
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    /// A URL without its query (which may carry search text) for messages.
    static func display(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.user = nil
        components?.password = nil
        return components?.string ?? url.path
    }
}

extension CatalogClientError: LocalizedError {
    /// ``message``: what `localizedDescription` answers, so an app that shows any error's
    /// `localizedDescription` shows this sentence rather than a generic one.
    public var errorDescription: String? { message }

    /// What to do about it, for the failures where the user can do something: connectivity
    /// failures (try again when online), sign-in and rate limits.
    public var recoverySuggestion: String? {
        switch code {
        case .offline, .timedOut, .transport, .tls, .unavailable:
            return "Check the connection and try again."
        case .unauthorized:
            return "Sign in again."
        case .tooManyRequests:
            return retryAfter.map { "Try again in \($0) seconds." } ?? "Try again later."
        default:
            return nil
        }
    }
}
