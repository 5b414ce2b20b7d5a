import Synchronization

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

    /// 32 hex digits: a random number drawn once per process from the system's random source,
    /// then a per-request counter scrambled with a second one (a bijection, so no two requests
    /// of a process share an id). Two system calls a request were 2% of an item's cost.
    public static let random = RequestID {
        let count = RandomIDs.counter.add(1, ordering: .relaxed).newValue
        return hex(RandomIDs.prefix, RandomIDs.scramble(count ^ RandomIDs.key))
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

    /// Two numbers as 32 lowercase hex digits, written straight into the string's storage.
    private static func hex(_ high: UInt64, _ low: UInt64) -> String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            func put(_ value: UInt64, at start: Int) {
                for place in 0..<16 {
                    let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * place)) & 15
                    buffer[start + place] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") - 10 + nibble
                }
            }
            put(high, at: 0)
            put(low, at: 16)
            return 32
        }
    }
}

/// The process's random parts of ``RequestID/random``.
private enum RandomIDs {
    static let prefix = draw()
    static let key = draw()
    static let counter = Atomic<UInt64>(0)

    static func draw() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }

    /// SplitMix64's finalizer: each step is invertible, so distinct inputs stay distinct.
    static func scramble(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
