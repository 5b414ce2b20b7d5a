/// A key the user pressed, decoded from the bytes a terminal sends.
enum Key: Equatable, Sendable {
    /// A printable character (letters, digits, punctuation, any script).
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace, delete
    /// Ctrl and a letter (`control("c")` is Ctrl-C).
    case control(Character)
    /// A mouse button or the wheel, reported in SGR mouse mode (1006).
    case mouse(Mouse)
}

/// What the mouse did, and where (columns and rows from 1, as the terminal counts them).
struct Mouse: Equatable, Sendable {
    enum Action: Equatable, Sendable {
        /// The left button went down.
        case click
        case wheelUp, wheelDown
    }

    var action: Action
    var column: Int
    var row: Int

    /// The event of an SGR report's parameters (`<0;12;5` and `M`), nil for releases, other
    /// buttons and motion.
    init?(sgr parameters: String, pressed: Bool) {
        let numbers = parameters.dropFirst().split(separator: ";").map { Int($0) }
        guard pressed, numbers.count == 3, let button = numbers[0], let column = numbers[1], let row = numbers[2]
        else { return nil }
        // Bits 2–4 are Shift, Meta and Ctrl; 32 is motion.
        switch button & ~0b1_1100 {
        case 0: action = .click
        case 64: action = .wheelUp
        case 65: action = .wheelDown
        default: return nil
        }
        self.column = column
        self.row = row
    }
}

/// Turns the bytes read from a terminal into keys. Escape sequences may arrive split across
/// reads: what is incomplete waits for the next bytes, except that a lone ESC with nothing after
/// it (``flush()``, after a short pause) is the Escape key.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// The keys in `bytes` (with what was pending before them).
    mutating func feed(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.decode(pending, at: index) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        // Never hold more than an escape sequence can be long: garbage is dropped.
        if pending.count > 24 { pending.removeAll() }
        return keys
    }

    /// Whether bytes are waiting for more (an ESC that may start a sequence).
    var isWaiting: Bool { !pending.isEmpty }

    /// What is pending, taken as it is: a lone ESC is Escape.
    mutating func flush() -> [Key] {
        defer { pending.removeAll() }
        guard let first = pending.first else { return [] }
        if first == 0x1B { return [.escape] + KeyDecoder().feedAll(Array(pending.dropFirst())) }
        return []
    }

    private func feedAll(_ bytes: [UInt8]) -> [Key] {
        var copy = self
        return copy.feed(bytes)
    }

    /// One key at `index`: the key (nil for bytes that mean nothing) and how many bytes it
    /// took, or nil when more bytes are needed.
    static func decode(_ bytes: [UInt8], at index: Int) -> (Key?, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x1B: return escape(bytes, at: index)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        case 0x20...0x7E: return (.character(Character(Unicode.Scalar(byte))), 1)
        default:
            // UTF-8: the length from the lead byte.
            let length: Int
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return (nil, 1)  // a continuation byte or an impossible lead byte
            }
            guard index + length <= bytes.count else { return nil }
            guard let text = String(validating: bytes[index..<(index + length)], as: UTF8.self),
                let character = text.first
            else { return (nil, 1) }
            return (.character(character), length)
        }
    }

    /// After ESC: a CSI (`ESC [`) or SS3 (`ESC O`) sequence, Alt+key, or Escape itself.
    private static func escape(_ bytes: [UInt8], at index: Int) -> (Key?, Int)? {
        guard index + 1 < bytes.count else { return nil }
        let next = bytes[index + 1]
        if next == 0x4F {  // ESC O x
            guard index + 2 < bytes.count else { return nil }
            let key: Key? =
                switch bytes[index + 2] {
                case 0x41: .up
                case 0x42: .down
                case 0x43: .right
                case 0x44: .left
                case 0x48: .home
                case 0x46: .end
                default: nil
                }
            return (key, 3)
        }
        guard next == 0x5B else {
            // ESC ESC, or Alt+key: Escape, and the next byte on its own.
            return (.escape, 1)
        }
        // ESC [ parameters final
        var end = index + 2
        while end < bytes.count, (0x30...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return end - index > 20 ? (nil, end - index) : nil }
        let final = bytes[end]
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        let length = end - index + 1
        if parameters.hasPrefix("<") {
            // An SGR mouse report: ESC [ < button ; column ; row M (press) or m (release).
            let mouse = final == 0x4D || final == 0x6D ? Mouse(sgr: parameters, pressed: final == 0x4D) : nil
            return (mouse.map { .mouse($0) }, length)
        }
        let key: Key?
        switch final {
        case 0x41: key = .up
        case 0x42: key = .down
        case 0x43: key = .right
        case 0x44: key = .left
        case 0x48: key = .home
        case 0x46: key = .end
        case 0x5A: key = .backTab
        case 0x7E:
            switch parameters.split(separator: ";").first {
            case "1", "7": key = .home
            case "4", "8": key = .end
            case "3": key = .delete
            case "5": key = .pageUp
            case "6": key = .pageDown
            default: key = nil
            }
        default: key = nil
        }
        return (key, length)
    }
}
