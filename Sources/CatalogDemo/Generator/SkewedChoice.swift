/// Picks an index in `0..<count` with a Zipf–Mandelbrot-like skew: index `i` has weight
/// `1 / (i + offset)`. The first entries of a list come up often, the tail rarely, the way words
/// are spread over a real catalog.
///
/// Integer weights and a guide table (a coarse index into the cumulative weights) make a draw cost
/// one random number and a step or two, with no floating point, so the choice is the same on every
/// platform.
struct SkewedChoice: Sendable {
    private let cumulative: [UInt64]
    private let guide: [Int32]
    private let total: UInt64

    /// Creates a choice over `count` entries; a larger `offset` flattens the head of the curve.
    init(count: Int, offset: Int = 2) {
        precondition(count > 0, "a choice needs at least one entry")
        self.init(weights: (0..<count).map { 1_000_000 / ($0 + offset) })
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
        let guideSize = max(64, weights.count * 4)
        var guide: [Int32] = []
        guide.reserveCapacity(guideSize)
        var index = 0
        for slot in 0..<guideSize {
            let threshold = UInt64(slot) * sum / UInt64(guideSize)
            while sums[index] <= threshold { index += 1 }
            guide.append(Int32(index))
        }
        cumulative = sums
        self.guide = guide
        total = sum
    }

    /// The number of entries.
    var count: Int { cumulative.count }

    /// Draws one index.
    @inline(__always)
    func pick(_ random: inout SplitMix64) -> Int {
        let target = random.next().multipliedFullWidth(by: total).high
        let slot = Int(target &* UInt64(guide.count) / total)
        return cumulative.withUnsafeBufferPointer { sums in
            var index = Int(guide[slot])
            while sums[index] <= target { index += 1 }
            return index
        }
    }
}
