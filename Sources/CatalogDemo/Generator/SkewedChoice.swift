/// Picks an index in `0..<count` with a Zipf–Mandelbrot-like skew: index `i` has weight
/// `1 / (i + offset)`. The first entries of a list come up often, the tail rarely, the way words
/// are spread over a real catalog.
///
/// Built from integer weights and searched with a binary search, so the choice depends only on the
/// random numbers drawn (no floating point), and is the same on every platform.
struct SkewedChoice: Sendable {
    private let cumulative: [UInt64]
    private let total: Int

    /// Creates a choice over `count` entries; a larger `offset` flattens the head of the curve.
    init(count: Int, offset: Int = 2) {
        precondition(count > 0, "a choice needs at least one entry")
        var sums: [UInt64] = []
        sums.reserveCapacity(count)
        var sum: UInt64 = 0
        for index in 0..<count {
            sum += 10_000_000 / UInt64(index + offset)
            sums.append(sum)
        }
        cumulative = sums
        total = Int(sum)
    }

    /// Creates a choice with explicit integer weights (each at least 1).
    init(weights: [Int]) {
        precondition(!weights.isEmpty && weights.allSatisfy { $0 > 0 }, "weights must be positive")
        var sums: [UInt64] = []
        sums.reserveCapacity(weights.count)
        var sum: UInt64 = 0
        for weight in weights {
            sum += UInt64(weight)
            sums.append(sum)
        }
        cumulative = sums
        total = Int(sum)
    }

    /// The number of entries.
    var count: Int { cumulative.count }

    /// Draws one index.
    @inline(__always)
    func pick(_ random: inout SplitMix64) -> Int {
        let target = UInt64(random.below(total))
        var low = 0
        var high = cumulative.count - 1
        cumulative.withUnsafeBufferPointer { sums in
            while low < high {
                let middle = (low + high) >> 1
                if sums[middle] > target { high = middle } else { low = middle + 1 }
            }
        }
        return low
    }
}
