/// The id that ties a request's answer (`X-Request-Id`) to its log lines.
///
/// A client's (or proxy's) own `X-Request-Id` is taken when it is short and safe: 1 to 128
/// characters of `A–Z a–z 0–9 . _ -`, so it can never forge a log line or a header. Anything else is
/// replaced with a fresh random id. When trusted proxies are configured (`--trusted-proxy`), only
/// they may choose the id (``ClientAddress/headersAreTrusted``); other peers always get a fresh one.
/// Without trusted proxies every client may choose its id.
public struct RequestID: Sendable {
    /// Makes a fresh id; injected so tests can be exact.
    public var make: @Sendable () -> String

    /// Ids from `make`.
    public init(make: @escaping @Sendable () -> String) {
        self.make = make
    }

    /// 32 hex digits from the system's random source.
    public static let random = RequestID {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    /// The id a request's answer carries: its own `X-Request-Id` when ``isSafe(_:)`` and sent by
    /// someone trusted to choose it, else a fresh one.
    public func id(for request: Request) -> String {
        if request.client.headersAreTrusted, let given = request.headers["X-Request-Id"], Self.isSafe(given) {
            return given
        }
        return make()
    }

    /// Whether a client's id may be used as it is: 1 to 128 characters of `A–Z a–z 0–9 . _ -`.
    public static func isSafe(_ id: String) -> Bool {
        let bytes = id.utf8
        return !bytes.isEmpty && bytes.count <= 128
            && bytes.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
                    return true
                default:
                    return false
                }
            }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
