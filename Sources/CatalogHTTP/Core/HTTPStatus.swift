/// A response status code.
public struct HTTPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code.
    public var rawValue: Int

    /// Creates a status from its code.
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let ok = HTTPStatus(rawValue: 200)
    public static let created = HTTPStatus(rawValue: 201)
    public static let accepted = HTTPStatus(rawValue: 202)
    public static let noContent = HTTPStatus(rawValue: 204)
    public static let partialContent = HTTPStatus(rawValue: 206)
    public static let movedPermanently = HTTPStatus(rawValue: 301)
    public static let found = HTTPStatus(rawValue: 302)
    public static let seeOther = HTTPStatus(rawValue: 303)
    public static let notModified = HTTPStatus(rawValue: 304)
    public static let badRequest = HTTPStatus(rawValue: 400)
    public static let unauthorized = HTTPStatus(rawValue: 401)
    public static let forbidden = HTTPStatus(rawValue: 403)
    public static let notFound = HTTPStatus(rawValue: 404)
    public static let methodNotAllowed = HTTPStatus(rawValue: 405)
    public static let conflict = HTTPStatus(rawValue: 409)
    public static let preconditionFailed = HTTPStatus(rawValue: 412)
    public static let payloadTooLarge = HTTPStatus(rawValue: 413)
    public static let unsupportedMediaType = HTTPStatus(rawValue: 415)
    public static let rangeNotSatisfiable = HTTPStatus(rawValue: 416)
    public static let unprocessableContent = HTTPStatus(rawValue: 422)
    public static let tooManyRequests = HTTPStatus(rawValue: 429)
    public static let internalServerError = HTTPStatus(rawValue: 500)
    public static let notImplemented = HTTPStatus(rawValue: 501)
    public static let serviceUnavailable = HTTPStatus(rawValue: 503)

    /// True for 2xx.
    public var isSuccess: Bool { (200..<300).contains(rawValue) }

    public var description: String { String(rawValue) }
}
