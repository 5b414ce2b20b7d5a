import CatalogSupport
import Foundation

/// Byte strings to dense numbers, for the index builder: every distinct term (and every distinct
/// word, in the word cache) gets the next number the first time it is seen.
///
/// Open addressing over one byte arena, so a million terms cost a few arrays instead of a
/// million heap objects, and a lookup is one hash and usually one comparison.
struct TermTable {
    /// Every key's bytes, one after another.
    private(set) var arena: [UInt8] = []
    /// Where key `n` starts in ``arena``; one extra entry at the end.
    private(set) var starts: [UInt32] = [0]
    /// Slots: key number + 1, or 0 for empty.
    private var slots: [UInt32]
    private var hashes: [UInt32] = []
    private var mask: Int

    init(capacity: Int = 1 << 16) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [UInt32](repeating: 0, count: size)
        mask = size - 1
    }

    /// How many keys there are.
    var count: Int { starts.count - 1 }

    /// The bytes of key `number`.
    func key(_ number: Int) -> ArraySlice<UInt8> {
        arena[Int(starts[number])..<Int(starts[number + 1])]
    }

    /// The number of `key`, adding it when new.
    @inline(__always)
    mutating func number(of key: UnsafeBufferPointer<UInt8>) -> (number: Int, isNew: Bool) {
        precondition(!slots.isEmpty, "a term table is used after dropLookup()")
        let hash = Self.hash(key)
        var slot = Int(hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { break }
            let number = Int(entry) - 1
            if hashes[number] == hash && equals(number, key) { return (number, false) }
            slot = (slot + 1) & mask
        }
        let number = count
        arena.append(contentsOf: key)
        starts.append(UInt32(arena.count))
        hashes.append(hash)
        slots[slot] = UInt32(number + 1)
        if count * 2 > slots.count { grow() }
        return (number, true)
    }

    /// Lets go of the lookup structures, keeping the keys: after this only ``key(_:)`` and
    /// ``count`` may be used.
    mutating func dropLookup() {
        slots = []
        hashes = []
        mask = 0
    }

    /// The number of `key`, or nil when it was never added.
    func lookup(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !slots.isEmpty else { return nil }
        let hash = Self.hash(key)
        var slot = Int(hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            let number = Int(entry) - 1
            if hashes[number] == hash && equals(number, key) { return number }
            slot = (slot + 1) & mask
        }
    }

    @inline(__always)
    private func equals(_ number: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = Int(starts[number])
        let end = Int(starts[number + 1])
        guard end - start == key.count else { return false }
        return arena.withUnsafeBufferPointer { arena in
            guard let base = arena.baseAddress, let other = key.baseAddress else { return key.isEmpty }
            return memcmp(base + start, other, key.count) == 0
        }
    }

    private mutating func grow() {
        let size = slots.count * 2
        slots = [UInt32](repeating: 0, count: size)
        mask = size - 1
        for number in 0..<count {
            var slot = Int(hashes[number]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = UInt32(number + 1)
        }
    }

    /// FNV-1a, folded to 32 bits; terms are short.
    ///
    /// Its own hash, not ``ContentDigest``: it picks a slot for every term of every record on the
    /// index builder's hottest loop, lives only in memory, and 128 bits would buy nothing here.
    @inline(__always)
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
