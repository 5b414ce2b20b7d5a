/// Comparing secrets without revealing, through timing, where they first differ.
public enum ConstantTime {
    /// True when `a` and `b` are equal; the time taken depends only on their lengths.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        Sodium.constantTimeEqual(a, b)
    }
}
