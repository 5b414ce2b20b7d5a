/// A small, fast, deterministic pseudo-random number generator (the SplitMix64 mixing function):
/// the same seed yields the same sequence on every platform, which is what a reproducible synthetic
/// catalog needs. Not suitable for anything secret.
public struct SplitMix64: Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    @inline(__always)
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (multiply-shift; the bias is far below anything a catalog notices).
    @inline(__always)
    public mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A number in `range`.
    @inline(__always)
    mutating func inRange(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `perTenThousand` / 10 000.
    @inline(__always)
    mutating func chance(perTenThousand: Int) -> Bool {
        below(10_000) < perTenThousand
    }
}
